// Well-formed Unicode: no string may hold a lone surrogate (U+D800–U+DFFF outside a pair). Such text cannot be written
// as UTF-8: the databases replace it (differently), and two passwords with different lone surrogates would hash alike.

export const ILL_FORMED_MESSAGE = 'must be well-formed Unicode (it holds a lone surrogate such as \\ud800)';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (matched on UTF-16 code units). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** String.prototype.isWellFormed (ES2024), for the TypeScript lib this project targets. */
export function isWellFormedString(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Whether every string in `value` — keys and values, at any depth (walked without recursion) — is well-formed. */
export function isWellFormedValue(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isWellFormedString(item)) return false;
    } else if (item !== null && typeof item === 'object') {
      if (Array.isArray(item)) {
        for (const child of item) pending.push(child);
      } else {
        for (const [key, child] of Object.entries(item)) {
          if (!isWellFormedString(key)) return false;
          pending.push(child);
        }
      }
    }
  }
  return true;
}

/**
 * For a JSON text made by JSON.stringify, which writes a lone surrogate as the escape `\udXXX` and a paired one as the
 * character itself: whether it may hold one (a cheap test before walking the value).
 */
export function mayHoldLoneSurrogate(jsonText: string): boolean {
  return /\\ud[89a-f]/i.test(jsonText);
}
