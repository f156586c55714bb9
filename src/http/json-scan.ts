// One linear pass over a JSON text before it is parsed: how deep its arrays and objects nest, outside strings.
// JSON.parse builds the whole value first (a 2 MB body nested 1,000,000 deep costs a second of CPU and 200 MB), and
// code that walks a value recursively (JSON.stringify, validation, hashing) overflows the stack on deep ones: a body
// nested deeper than a route allows is refused here, at the cost of reading its bytes once.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when `text` opens more than `maxDepth` arrays or objects inside one another (brackets inside strings do not
 * count). Stops at the first level too many. The text need not be valid JSON: the parser judges that afterwards.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // skip the string: to the next quote that no backslash escapes
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
