// Where game files live and which paths may be published and served: one rule for `games publish` and for /g/{slug}/….
import { randomBytes } from 'node:crypto';

/** A URL segment `~<set>` names a file set explicitly; top-level game files may therefore not start with `~`. */
export const SET_MARKER = '~';

/** Names of file-set directories (publish makes `<time36>-<hex>`); dot-prefixed staging and trash directories never match. */
const SET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The store's `games/` folder: one folder per slug, holding its file sets (`games/<slug>/<set>/<file>`). */
export const GAMES_PREFIX = 'games';

export function slugPrefix(slug: string): string {
  return `${GAMES_PREFIX}/${slug}`;
}

/** A new, unique file-set name; names sort by publish time. */
export function newSetName(now: number): string {
  return `${now.toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * A build's file set: 128 random bits, so that a build not yet released cannot be found by guessing its URL (its
 * files other than the entry are served to anyone who has the URL, as a released build's are).
 */
export function newBuildSetName(now: number): string {
  return `${now.toString(36)}-${randomBytes(16).toString('hex')}`;
}

export function isSetName(name: string): boolean {
  return SET_NAME.test(name);
}

// Control characters, separators, and what a URL would read as query, fragment or escape.
const BAD_CHARACTER = /[\u0000-\u001f\u007f/\\?#%]/;

/** The longest file name file systems (and so a local store) hold: 255 bytes of UTF-8. */
export const MAX_NAME_BYTES = 255;

/** One segment of a game file path: 1 to 255 bytes, not `.` or `..`, no dotfile, no separator or control character. */
export function isServableSegment(segment: string): boolean {
  return (
    segment.length > 0 &&
    Buffer.byteLength(segment) <= MAX_NAME_BYTES &&
    !segment.startsWith('.') &&
    !BAD_CHARACTER.test(segment)
  );
}

/** A relative path (`/`-separated) that publish may store and /g/ may serve. */
export function isServablePath(relative: string): boolean {
  if (relative.length === 0 || relative.length > 1024) return false;
  const segments = relative.split('/');
  return segments.every(isServableSegment) && !segments[0]!.startsWith(SET_MARKER);
}

/** The URL path of a game file: each segment percent-encoded. */
export function encodeFilePath(relative: string): string {
  return relative.split('/').map(encodeURIComponent).join('/');
}

/**
 * A content hash in a name: the bytes under such a name never change, so a plain URL may be cached for good too.
 * webpack's and Parcel's `[contenthash]` and Unity's "Name Files As Hashes" (a run of 8 or more hex digits, with a
 * digit and a letter, between separators); esbuild's `[name]-[hash]` (8 of A–Z and 2–7, with a digit); Rollup's and
 * Vite's `[name]-[hash]` (8 base64url characters, not all lower-case letters) inside an `assets` folder, where Vite
 * puts only what it hashed. A pre-compressed copy's name counts as the name it holds.
 */
const HEX_HASH = /(?:^|[._-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\./;
const ESBUILD_HASH = /-(?=[A-Z2-7]{0,7}[2-7])[A-Z2-7]{8}\./;
const ROLLUP_HASH = /-(?=[\w-]{0,7}[A-Z0-9])[\w-]{8}(?:\.[A-Za-z0-9]+)+$/;

export function hasContentHash(relative: string): boolean {
  const segments = relative.replace(/\.(?:br|gz)$/, '').split('/');
  const name = segments.pop()!;
  return HEX_HASH.test(name) || ESBUILD_HASH.test(name) || (segments.includes('assets') && ROLLUP_HASH.test(name));
}
