// What a build's zip may hold, entry by entry: names that stay inside the game's folder, regular files only, no two
// entries sharing or overlapping their bytes. Each refusal names the file (docs/api.md, "What a build may hold").
import { AppError } from '../../http/errors.js';
import { isServableSegment, SET_MARKER } from './files.js';

/** Why a build was refused: `error.reason` of 422 invalid_build, with `error.file` naming the entry. */
export type BuildRefusalReason =
  | 'not_a_zip'
  | 'corrupt'
  | 'absolute_name'
  | 'path_traversal'
  | 'bad_name'
  | 'name_too_long'
  | 'link'
  | 'special_file'
  | 'duplicate'
  | 'encrypted'
  | 'unsupported_compression'
  | 'too_many_files'
  | 'too_large'
  | 'zip_bomb';

export function buildRefusal(reason: BuildRefusalReason, message: string, file?: string): AppError {
  return new AppError('invalid_build', message, file === undefined ? { reason } : { reason, file });
}

/** Longest name of one folder or file, in UTF-8 bytes (most file systems' limit), and of a whole path. */
export const MAX_SEGMENT_BYTES = 255;
export const MAX_PATH_BYTES = 1024;

export type EntryKind = 'file' | 'folder' | 'skipped';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** versionMadeBy's upper byte: 3 is Unix, whose external attributes carry st_mode in their upper 16 bits. */
const MADE_ON_UNIX = 3;

/** Folders archivers add that are not part of a game: macOS Finder's resource forks. */
const ARCHIVER_FOLDERS = new Set(['__MACOSX']);

export interface EntryFacts {
  /** the decoded name, with `\` read as `/` (PowerShell's Compress-Archive writes them) */
  name: string;
  versionMadeBy: number;
  externalFileAttributes: number;
  generalPurposeBitFlag: number;
  compressionMethod: number;
}

/**
 * What an entry is: a file to unpack, a folder, or skipped (hidden names such as `.DS_Store` or `.git/…`, and
 * `__MACOSX/…`, as `games publish` leaves hidden names out). Anything unsafe throws invalid_build naming it.
 */
export function classifyEntry(entry: EntryFacts): EntryKind {
  const { name } = entry;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw buildRefusal('absolute_name', `${name}: an absolute name; names in a build are relative to its top`, name);
  const folder = name.endsWith('/');
  const segments = (folder ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..'))
    throw buildRefusal('path_traversal', `${name}: ".." would leave the game's folder`, name);
  if (segments.includes('.')) throw buildRefusal('bad_name', `${name}: a "." folder name`, name);
  if (Buffer.byteLength(name) > MAX_PATH_BYTES)
    throw buildRefusal('name_too_long', `${name.slice(0, 80)}…: the name is longer than ${MAX_PATH_BYTES} bytes`, name);
  const long = segments.find((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES);
  if (long !== undefined)
    throw buildRefusal(
      'name_too_long',
      `${name.slice(0, 80)}…: "${long.slice(0, 40)}…" is longer than ${MAX_SEGMENT_BYTES} bytes`,
      name,
    );
  if (segments.some((s) => s.startsWith('.')) || ARCHIVER_FOLDERS.has(segments[0]!)) return 'skipped';
  if (segments.some((s) => s === '')) throw buildRefusal('bad_name', `${name}: an empty folder name (//)`, name);
  const bad = segments.find((s) => !isServableSegment(s));
  if (bad !== undefined)
    throw buildRefusal('bad_name', `${name}: a name must not contain \\ ? # % or control characters`, name);
  if (segments[0]!.startsWith(SET_MARKER))
    throw buildRefusal('bad_name', `${name}: top-level names starting with ${SET_MARKER} are reserved`, name);
  if ((entry.generalPurposeBitFlag & 1) !== 0)
    throw buildRefusal('encrypted', `${name}: the entry is encrypted; zip the build without a password`, name);
  checkType(entry, folder);
  if (folder) return 'folder';
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw buildRefusal(
      'unsupported_compression',
      `${name}: compression method ${entry.compressionMethod} is not supported; zip with deflate (the default of every zip tool)`,
      name,
    );
  return 'file';
}

/** Links, devices, FIFOs and sockets are refused (their Unix file type is in the entry's external attributes). */
function checkType(entry: EntryFacts, folder: boolean): void {
  if (entry.versionMadeBy >>> 8 !== MADE_ON_UNIX) return;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === 0 || type === (folder ? S_IFDIR : S_IFREG)) return;
  if (type === S_IFLNK)
    throw buildRefusal('link', `${entry.name}: a symbolic link; a build holds regular files only`, entry.name);
  throw buildRefusal('special_file', `${entry.name}: not a regular file (a device, FIFO or socket)`, entry.name);
}

export interface Placed {
  name: string;
  /** where its local header starts */
  offset: number;
  /** the least its header and data can take: 30 bytes of local header, its name, its compressed data */
  span: number;
}

/**
 * Entries must not share or overlap their bytes: two names for one stored file is a hard link, and overlapping
 * entries are the trick of the most compact zip bombs (every entry inflating the same kernel).
 */
export function checkLayout(entries: Placed[]): void {
  const sorted = [...entries].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1]!;
    const entry = sorted[i]!;
    if (entry.offset === before.offset)
      throw buildRefusal(
        'link',
        `${entry.name}: shares its stored bytes with ${before.name} (a hard link); a build holds each file once`,
        entry.name,
      );
    if (entry.offset < before.offset + before.span)
      throw buildRefusal(
        'zip_bomb',
        `${entry.name}: its bytes overlap those of ${before.name} (an overlapping-entry zip bomb)`,
        entry.name,
      );
  }
}

/**
 * The folder every name starts with when the zip holds one folder with game.json in it (a zip of `dist/` rather than
 * of its content), else ''.
 */
export function commonRoot(names: string[]): string {
  if (names.includes('game.json')) return '';
  const first = names[0]?.split('/')[0];
  if (!first || !names.every((n) => n.startsWith(`${first}/`))) return '';
  return names.includes(`${first}/game.json`) ? `${first}/` : '';
}
