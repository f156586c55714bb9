// Which file a /g/{slug}/… request names, whether it may have it (the entry-file gate of DESIGN §5), and how it may be cached.
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { playsWithoutLimit } from '../accounts/membership.js';
import { getEntitlement } from '../play/entitlement.js';
import { encodedName } from './file-types.js';
import { encodeFilePath, isServablePath, isServableSegment, isSetName, SET_MARKER, slugPrefix } from './files.js';
import { gameBaseUrl, gameFileUrl } from './game-origin.js';
import { findEntrySession, findListedGame } from './games.repository.js';
import { SLUG_PATTERN } from './manifest.js';

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
      /** the game asked for cross-origin isolation (game.json `cross_origin_isolated`) */
      isolated: boolean;
    }
  | { kind: 'redirect'; location: string };

const notAllowed = (message: string) => new AppError('play_not_allowed', message);

/** The entry file needs `?session=` of an active session of this game whose player may still play. */
async function checkEntryGate(
  ctx: AppContext,
  game: { id: number; requires_premium: number },
  session: string | undefined,
): Promise<void> {
  if (!session?.startsWith('ps_') || session.length > 256) {
    throw notAllowed('The game starts from the play shell: its entry file needs ?session= with an active play session');
  }
  const now = ctx.clock.now();
  const player = await findEntrySession(ctx.db, sha256(session), game.id, now - ctx.config.session_idle_timeout * 1000);
  if (!player) throw notAllowed('This play session is not an active session of this game; start a new one');
  if (game.requires_premium === 1 && !playsWithoutLimit(player, now))
    throw notAllowed('This game is for Unlimited members');
  if ((await getEntitlement(ctx, player)).limit_reached) throw notAllowed('No play time is left today');
}

/** The entry file under any name that serves its content: itself, or a pre-compressed copy (`index.html.br`). */
const namesEntry = (file: string, entry: string) => file === entry || encodedName(file)?.inner === entry;

/**
 * Resolves a request for a game file. Only published and beta games have files. A `~<set>` URL may name the current
 * file set or the one the last publish replaced (pages loaded before a republish keep working); its bytes never change.
 * A plain URL (a root-relative `/assets/x.js` in a game on its own origin) reads the current set, then the replaced
 * one, so a page of the old version still finds its hashed files. The entry file at the plain URL redirects to the
 * versioned one, so that everything the page loads by relative URL comes from the same file set.
 */
export async function resolveGameFile(
  ctx: AppContext,
  target: GamePath,
  session: string | undefined,
): Promise<GameFileAnswer> {
  const game = await findListedGame(ctx.db, target.slug);
  if (!game) throw notFound(`No game ${target.slug}`);
  let set = game.files_dir;
  let entry = game.entry;
  if (target.set !== undefined && target.set !== game.files_dir) {
    if (target.set !== game.previous_files_dir || !game.previous_entry)
      throw notFound('This version of the game is no longer served');
    set = game.previous_files_dir;
    entry = game.previous_entry;
  }
  const file = target.file || entry;
  const dir = slugPrefix(game.slug);
  const isolated = game.cross_origin_isolated === 1;
  if (!namesEntry(file, entry)) {
    const roots = [`${dir}/${set}`];
    if (target.set === undefined && game.previous_files_dir) roots.push(`${dir}/${game.previous_files_dir}`);
    return { kind: 'file', roots, file, cache: target.set === undefined ? 'revalidate' : 'immutable', isolated };
  }

  await checkEntryGate(ctx, game, session);
  if (target.set === undefined) {
    return {
      kind: 'redirect',
      location: `${gameFileUrl(ctx.config, game.slug, set, entry)}?session=${encodeURIComponent(session!)}`,
    };
  }
  return { kind: 'file', roots: [`${dir}/${set}`], file, cache: 'no-store', isolated };
}

/** Where a /g/{slug}/… URL asked on the portal's origin lives now: the same path on the game's own origin. */
export function gameOriginLocation(ctx: AppContext, target: GamePath, query: string): string {
  const base = gameBaseUrl(ctx.config, target.slug);
  const file = target.file ? encodeFilePath(target.file) : '';
  return `${base}/${target.set === undefined ? '' : `${SET_MARKER}${target.set}/`}${file}${query}`;
}
