// Well-formed Unicode: no text input may hold a lone surrogate (U+D800–U+DFFF outside a pair). Such text cannot be
// written as UTF-8: the databases replaced it (differently), and two passwords with different lone surrogates hashed
// alike. Free-form JSON (a save state, score meta) keeps them: it is stored as JSON text, where they are escapes.

export const ILL_FORMED_MESSAGE = 'must be well-formed Unicode (it holds a lone surrogate such as \\ud800)';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (matched on UTF-16 code units). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (ES2024), for the TypeScript lib this project targets. */
export function isWellFormedString(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
