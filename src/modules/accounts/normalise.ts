// Normalises text fields of a JSON body before validation, so the limits of the API apply to what is stored.
import type { preValidationAsyncHookHandler } from 'fastify';

/**
 * trim: surrounding white space removed (emails, usernames, codes, tokens).
 * text: NFC, then trimmed (display names, token names).
 * multiline: NFC, CRLF to LF, then trimmed (bio).
 * password: NFC only; a password is never trimmed.
 */
export type TextRule = 'trim' | 'text' | 'multiline' | 'password';

const RULES: Record<TextRule, (value: string) => string> = {
  trim: (v) => v.trim(),
  text: (v) => v.normalize('NFC').trim(),
  multiline: (v) => v.normalize('NFC').replace(/\r\n?/g, '\n').trim(),
  password: (v) => v.normalize('NFC'),
};

/** A preValidation hook applying `rules` to the string fields of the body; other types are left for the schema to refuse. */
export function normaliseBody(rules: Record<string, TextRule>): preValidationAsyncHookHandler {
  const entries = Object.entries(rules);
  return async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    for (const [field, rule] of entries) {
      const value = body[field];
      if (typeof value === 'string') body[field] = RULES[rule](value);
    }
  };
}
