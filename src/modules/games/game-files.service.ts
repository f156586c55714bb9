// Which file a /g/{slug}/… request names, whether it may have it (entry-gate.ts), and how it may be cached.
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { findServedBuild } from './builds.repository.js';
import { checkPlayEntry, checkPreviewEntry, isPreviewToken } from './entry-gate.js';
import { encodedName } from './file-types.js';
import {
  encodeFilePath,
  hasContentHash,
  isServablePath,
  isServableSegment,
  isSetName,
  SET_MARKER,
  slugPrefix,
} from './files.js';
import { gameBaseUrl, gameFileUrl } from './game-origin.js';
import { type FilesGameRow, findGameForFiles } from './games.repository.js';
import { isListed, SLUG_PATTERN } from './manifest.js';

export interface GamePath {
  slug: string;
  /** the file set named by a `~<set>` segment; undefined: the current one */
  set?: string;
  /** the file, decoded; '' names the entry file */
  file: string;
}

/**
 * Reads `/g/{slug}/[~{set}/]{file}` from the raw request URL, decoding each segment exactly once.
 * Anything that is not a canonical path to a publishable file is null: `.`/`..`/empty segments, encoded
 * separators, backslashes, NUL and other control characters, hidden names, undecodable escapes.
 */
export function parseGamePath(rawUrl: string): GamePath | null {
  const pathname = rawUrl.split('?')[0]!;
  if (!pathname.startsWith('/g/')) return null;
  const segments: string[] = [];
  for (const raw of pathname.slice(3).split('/')) {
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  const [slug, ...rest] = segments;
  if (!slug || !SLUG_PATTERN.test(slug) || rest.length === 0) return null;
  let set: string | undefined;
  if (rest[0]!.startsWith(SET_MARKER)) {
    set = rest.shift()!.slice(SET_MARKER.length);
    if (!isSetName(set) || rest.length === 0) return null;
  }
  if (rest.length === 1 && rest[0] === '') return { slug, set, file: '' };
  // Checked segment by segment: a decoded %2F must not turn one segment into two.
  if (!rest.every(isServableSegment)) return null;
  const file = rest.join('/');
  return isServablePath(file) ? { slug, set, file } : null;
}

export type CachePolicy = 'immutable' | 'revalidate' | 'no-store';

export type GameFileAnswer =
  | {
      kind: 'file';
      /** the store prefixes to look in, in order: the file set asked for, then (plain URLs only) the one it replaced */
      roots: string[];
      file: string;
      cache: CachePolicy;
      /** the game (or the build previewed) asked for cross-origin isolation (game.json `cross_origin_isolated`) */
      isolated: boolean;
      /** a build's entry file in preview: its page's requests name their file set in Referer (same-origin only) */
      preview?: boolean;
    }
  | { kind: 'redirect'; location: string };

/** What the request brings besides its path: `?session=`, the Referer, the query string to keep on a redirect. */
export interface FileRequest {
  session?: string;
  referer?: string;
  query: string;
}

/** The entry file under any name that serves its content: itself, or a pre-compressed copy (`index.html.br`). */
const namesEntry = (file: string, entry: string) => file === entry || encodedName(file)?.inner === entry;

/** The file set a Referer on this game's origin names (`…/~<set>/…`), if any. */
function setOfReferer(ctx: AppContext, slug: string, referer: string | undefined): string | undefined {
  const base = `${gameBaseUrl(ctx.config, slug)}/${SET_MARKER}`;
  if (!referer?.startsWith(base)) return undefined;
  const set = referer.slice(base.length).split(/[/?#]/, 1)[0]!;
  return isSetName(set) ? set : undefined;
}

/**
 * A plain URL (a root-relative `/assets/x.js`): the current file set, then the one it replaced, so a page of the old
 * version still finds its hashed files. A page of a build in preview says its set in Referer: its plain URLs redirect
 * there, so a build never loads another build's files. The entry file at the plain URL redirects to the versioned one.
 */
async function resolvePlain(ctx: AppContext, game: FilesGameRow, target: GamePath, request: FileRequest) {
  const listed = isListed(game.status);
  const pinned = target.file ? setOfReferer(ctx, game.slug, request.referer) : undefined;
  if (pinned && !(listed && pinned === game.files_dir) && (await findServedBuild(ctx.db, game.id, pinned)))
    return redirectTo(gameFileUrl(ctx.config, game.slug, pinned, target.file) + request.query);
  if (!listed) throw notFound(`No game ${game.slug}`);
  const file = target.file || game.entry;
  const dir = slugPrefix(game.slug);
  const isolated = game.cross_origin_isolated === 1;
  // The replaced set's entry under a name the current set does not use (a republish renamed it) is an entry too.
  const replacedEntry =
    game.previous_files_dir &&
    game.previous_entry &&
    !namesEntry(file, game.entry) &&
    namesEntry(file, game.previous_entry)
      ? { set: game.previous_files_dir, entry: game.previous_entry }
      : undefined;
  if (!namesEntry(file, game.entry) && !replacedEntry) {
    const roots = [`${dir}/${game.files_dir}`];
    if (game.previous_files_dir) roots.push(`${dir}/${game.previous_files_dir}`);
    return fileIn(roots, file, hasContentHash(file) ? 'immutable' : 'revalidate', isolated);
  }
  const { set, entry } = replacedEntry ?? { set: game.files_dir, entry: game.entry };
  await checkPlayEntry(ctx, game, request.session);
  return redirectTo(
    `${gameFileUrl(ctx.config, game.slug, set, entry)}?session=${encodeURIComponent(request.session!)}`,
  );
}

/** A build's own file set (`~<set>` of a build that is neither live nor the one it replaced): preview, or a page of it. */
async function resolveBuildSet(
  ctx: AppContext,
  game: FilesGameRow,
  set: string,
  target: GamePath,
  request: FileRequest,
) {
  const build = await findServedBuild(ctx.db, game.id, set);
  if (!build) throw notFound('This version of the game is no longer served');
  const isolated = (JSON.parse(build.manifest) as { cross_origin_isolated?: boolean }).cross_origin_isolated === true;
  const file = target.file || build.entry;
  const root = `${slugPrefix(game.slug)}/${set}`;
  if (!namesEntry(file, build.entry)) return fileIn([root], file, 'immutable', isolated);
  if (isPreviewToken(request.session)) {
    await checkPreviewEntry(ctx, build.id, request.session);
    return { ...fileIn([root], file, 'no-store', isolated), preview: true };
  }
  // A page of an earlier release reloaded: its entry only for a build that was live, of a game players may see.
  if (!isListed(game.status) || build.released_at === null)
    throw new AppError('play_not_allowed', 'This build is not released: it opens only in a preview by its studio');
  await checkPlayEntry(ctx, game, request.session);
  return fileIn([root], file, 'no-store', isolated);
}

const fileIn = (roots: string[], file: string, cache: CachePolicy, isolated: boolean): GameFileAnswer => ({
  kind: 'file',
  roots,
  file,
  cache,
  isolated,
});
const redirectTo = (location: string): GameFileAnswer => ({ kind: 'redirect', location });

/**
 * Resolves a request for a game file. Published and beta games serve their current file set and the one the last
 * release replaced (pages loaded before it keep working); `~<set>` names one file set, whose bytes never change. A
 * build's own set is served too (preview, or a page of an earlier release): its files to anyone with its unguessable
 * URL, its entry file only with a preview token of that build, or a play session when it was ever live.
 */
export async function resolveGameFile(
  ctx: AppContext,
  target: GamePath,
  request: FileRequest,
): Promise<GameFileAnswer> {
  const game = await findGameForFiles(ctx.db, target.slug);
  if (!game) throw notFound(`No game ${target.slug}`);
  if (target.set === undefined) return resolvePlain(ctx, game, target, request);
  // A preview of the live build is a preview all the same: its own entry gate, not metered.
  if (isPreviewToken(request.session)) return resolveBuildSet(ctx, game, target.set, target, request);
  const listed = isListed(game.status);
  let entry: string;
  if (listed && target.set === game.files_dir) entry = game.entry;
  else if (listed && target.set === game.previous_files_dir && game.previous_entry) entry = game.previous_entry;
  else return resolveBuildSet(ctx, game, target.set, target, request);
  const file = target.file || entry;
  const root = `${slugPrefix(game.slug)}/${target.set}`;
  const isolated = game.cross_origin_isolated === 1;
  if (!namesEntry(file, entry)) return fileIn([root], file, 'immutable', isolated);
  await checkPlayEntry(ctx, game, request.session);
  return fileIn([root], file, 'no-store', isolated);
}

/** Where a /g/{slug}/… URL asked on the portal's origin lives now: the same path on the game's own origin. */
export function gameOriginLocation(ctx: AppContext, target: GamePath, query: string): string {
  const base = gameBaseUrl(ctx.config, target.slug);
  const file = target.file ? encodeFilePath(target.file) : '';
  return `${base}/${target.set === undefined ? '' : `${SET_MARKER}${target.set}/`}${file}${query}`;
}
