// The game as the score and leaderboard routes see it, and the one check that opens those routes.
import type { Credential } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';

export interface ScoringGame {
  id: number;
  slug: string;
  name: string;
  leaderboard_enabled: number;
  leaderboard_order: string;
  leaderboard_unit: string;
}

/**
 * A game whose score and leaderboard routes are open, in the order of the checks: listed (404 not_found), not a
 * developer key of another game (403 forbidden), its leaderboard on (404 leaderboard_disabled).
 */
export function openScoringGame<G extends Pick<ScoringGame, 'id' | 'leaderboard_enabled'>>(
  game: G | undefined,
  credential?: Credential | null,
): G {
  if (!game) throw notFound('No such game');
  if (credential?.kind === 'key' && credential.gameId !== game.id)
    throw new AppError('forbidden', 'This developer key belongs to another game');
  if (!game.leaderboard_enabled) throw new AppError('leaderboard_disabled', 'This game has no leaderboard');
  return game;
}

/** game.json `leaderboard.min` / `max`: null is no bound (PostgreSQL's bigint may come as text). */
export interface ScoreBounds {
  leaderboard_min: number | string | null;
  leaderboard_max: number | string | null;
}

const bound = (value: number | string | null) => (value === null ? null : Number(value));

/** A score outside the game's bounds is 422 score_out_of_range, naming them. */
export function checkScoreBounds(game: ScoreBounds, score: number): void {
  const min = bound(game.leaderboard_min);
  const max = bound(game.leaderboard_max);
  if ((min === null || score >= min) && (max === null || score <= max)) return;
  const range =
    min !== null && max !== null ? `from ${min} to ${max}` : min !== null ? `at least ${min}` : `at most ${max}`;
  throw new AppError('score_out_of_range', `This game's scores are ${range}; ${score} is outside`, { min, max });
}
