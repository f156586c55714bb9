// Thumbs up or down on a game, one vote per player and game; the game's rating shows a percentage only from
// rating_min_votes votes on (docs/api.md, "Ratings").
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { notFound } from '../../http/errors.js';
import type { PlayerCredential } from '../../http/auth.js';
import {
  copyRatings,
  countRatings,
  deleteRating,
  DOWN,
  findListedGameId,
  findPlayerRating,
  UP,
  upsertRating,
} from './ratings.repository.js';
import type { GameRating, RatingValue } from './games.schemas.js';

export interface RatingResult {
  rating: GameRating;
  my_rating: RatingValue | null;
}

const toValue = (vote: number | undefined): RatingValue | null => (vote === UP ? 'up' : vote === DOWN ? 'down' : null);

/** The game's rating: its votes, and the share of ups (rounded) once there are rating_min_votes of them. */
export async function gameRating(ctx: AppContext, db: Executor, gameId: number): Promise<GameRating> {
  const { up, down } = await countRatings(db, gameId);
  const total = up + down;
  return { up, down, percent: total >= ctx.config.rating_min_votes ? Math.round((up * 100) / total) : null };
}

/** The player's own vote on the game, for GET /games/{slug}. */
export async function playerRating(ctx: AppContext, playerId: number, gameId: number): Promise<RatingValue | null> {
  return toValue(await findPlayerRating(ctx.db, playerId, gameId));
}

async function listedGameId(ctx: AppContext, slug: string): Promise<number> {
  const game = await findListedGameId(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  return game.id;
}

/** PUT /games/{slug}/rating: the player's vote, replacing any earlier one. */
export async function rateGame(
  ctx: AppContext,
  slug: string,
  player: PlayerCredential,
  value: RatingValue,
): Promise<RatingResult> {
  const gameId = await listedGameId(ctx, slug);
  await upsertRating(ctx.db, player.playerId, gameId, value === 'up' ? UP : DOWN, ctx.clock.now());
  return { rating: await gameRating(ctx, ctx.db, gameId), my_rating: value };
}

/** DELETE /games/{slug}/rating: takes the player's vote back (none is no error). */
export async function unrateGame(ctx: AppContext, slug: string, player: PlayerCredential): Promise<RatingResult> {
  const gameId = await listedGameId(ctx, slug);
  await deleteRating(ctx.db, player.playerId, gameId);
  return { rating: await gameRating(ctx, ctx.db, gameId), my_rating: null };
}

/** A guest merged into an account, inside the caller's transaction: its votes move where the account has none. */
export function mergeRatings(trx: Executor, fromId: number, toId: number): Promise<number> {
  return copyRatings(trx, fromId, toId);
}
