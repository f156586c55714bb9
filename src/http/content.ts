// Body parsing: JSON only. No text/plain or form parser, so a cross-site form can never reach a JSON route.
import type { FastifyInstance } from 'fastify';

/** Default body limit for JSON routes; the state routes raise theirs. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export interface JsonParserOptions {
  /**
   * Keep keys named `__proto__` and `constructor` as plain data instead of refusing the body (400 invalid_json).
   * Only for routes that store a value and never merge it into another object (save states).
   */
  keepPrototypeKeys?: boolean;
}

/** Installs the JSON parser on `app` (the root, or a plugin's own context to change it for that plugin's routes). */
export function registerJsonParser(app: FastifyInstance, options: JsonParserOptions = {}): void {
  const poisoning = options.keepPrototypeKeys ? 'ignore' : 'error';
  const parseJson = app.getDefaultJsonParser(poisoning, poisoning);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty body with a JSON content type is "no body": routes with a required body answer 422.
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
