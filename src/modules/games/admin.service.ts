// The operator's view of the catalogue (games list, games set-status): every game, whatever its status.
import type { AppContext } from '../../context.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { findAllGames, findGameStatus, updateGameStatus } from './games.repository.js';
import { GAME_STATUSES, type GameStatus } from './manifest.js';
import { forgetStatusCounts } from '../status/status.counts.js';

export interface GameSummary {
  slug: string;
  name: string;
  status: string;
  version: string;
  category: string;
  plays: number;
  files_dir: string;
}

export async function listAllGames(ctx: AppContext): Promise<GameSummary[]> {
  const rows = await findAllGames(ctx.db);
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    status: r.status,
    version: r.version,
    category: r.category,
    plays: Number(r.plays),
    files_dir: r.files_dir,
  }));
}

/** Any status to any other (DESIGN leaves the transitions open); only published and beta games are visible to clients. */
export async function setGameStatus(
  ctx: AppContext,
  slug: string,
  status: string,
): Promise<{ slug: string; from: string; to: GameStatus }> {
  if (!(GAME_STATUSES as readonly string[]).includes(status))
    throw validationFailed({ status: `must be one of ${GAME_STATUSES.join(', ')}` });
  const game = await findGameStatus(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  await updateGameStatus(ctx.db, game.id, status, ctx.clock.now());
  forgetStatusCounts(ctx); // GET /status counts the listed games again
  return { slug, from: game.status, to: status as GameStatus };
}
