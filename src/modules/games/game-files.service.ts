// Which file a /g/{slug}/… request names, whether it may have it (the entry-file gate of DESIGN §5), and how it may be cached.
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { playsWithoutLimit } from '../accounts/membership.js';
import { getEntitlement } from '../play/entitlement.js';
import { isServablePath, isServableSegment, isSetName, SET_MARKER, slugDirectory, versionedFilePath } from './files.js';
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
  | { kind: 'file'; root: string; file: string; cache: CachePolicy }
  | { kind: 'redirect'; location: string };

const notAllowed = (message: string) => new AppError('play_not_allowed', message);

/** The entry file needs `?session=` of an active session of this game whose player may still play. */
async function checkEntryGate(ctx: AppContext, game: { id: number; requires_premium: number }, session: string | undefined): Promise<void> {
  if (!session || !session.startsWith('ps_') || session.length > 256) {
    throw notAllowed('The game starts from the play shell: its entry file needs ?session= with an active play session');
  }
  const now = ctx.clock.now();
  const player = await findEntrySession(ctx.db, sha256(session), game.id, now - ctx.config.session_idle_timeout * 1000);
  if (!player) throw notAllowed('This play session is not an active session of this game; start a new one');
  if (game.requires_premium === 1 && !playsWithoutLimit(player, now)) throw notAllowed('This game is for Unlimited members');
  if ((await getEntitlement(ctx, player)).limit_reached) throw notAllowed('No play time is left today');
}

/**
 * Resolves a request for a game file. Only published and beta games have files. A `~<set>` URL may name the current
 * file set or the one the last publish replaced (pages loaded before a republish keep working); its bytes never change.
 * The entry file at the plain URL redirects to the versioned one, so that everything the page loads by relative URL
 * comes from the same file set.
 */
export async function resolveGameFile(ctx: AppContext, target: GamePath, session: string | undefined): Promise<GameFileAnswer> {
  const game = await findListedGame(ctx.db, target.slug);
  if (!game) throw notFound(`No game ${target.slug}`);
  let set = game.files_dir;
  let entry = game.entry;
  if (target.set !== undefined && target.set !== game.files_dir) {
    if (target.set !== game.previous_files_dir || !game.previous_entry) throw notFound('This version of the game is no longer served');
    set = game.previous_files_dir;
    entry = game.previous_entry;
  }
  const file = target.file || entry;
  const root = path.join(slugDirectory(ctx.config, game.slug), set);
  if (file !== entry) return { kind: 'file', root, file, cache: target.set === undefined ? 'revalidate' : 'immutable' };

  await checkEntryGate(ctx, game, session);
  if (target.set === undefined) {
    return { kind: 'redirect', location: `${versionedFilePath(game.slug, set, entry)}?session=${encodeURIComponent(session!)}` };
  }
  return { kind: 'file', root, file, cache: 'no-store' };
}
