// The lookups of the /dev routes that no other module makes: a player of a key's game (without the private columns)
// and a key's game for its statistics.
import type { Executor } from '../../db/connect.js';
import type { MembershipFields } from '../accounts/membership.js';
import type { PublicPlayerFields } from '../accounts/player-views.js';
import { playtimeSeconds } from '../games/playtime.repository.js';

/** What a developer key may learn of a player: the public view's columns and the membership (for `unlimited`). */
export type PlayerOfGameRow = PublicPlayerFields & MembershipFields;

/**
 * The active player `playerId` if they have started a play session of the game, else undefined. Reads only the
 * columns of the public view and the membership: never the email, password hash, newsletter flag or role details.
 * Cost: a primary-key lookup of players, then play_sessions_player_idx (player_id, status, game_id) for the EXISTS.
 */
export function findPlayerOfGame(db: Executor, playerId: number, gameId: number): Promise<PlayerOfGameRow | undefined> {
  return db
    .selectFrom('players as p')
    .select([
      'p.id',
      'p.username',
      'p.display_name',
      'p.avatar_key',
      'p.bio',
      'p.country',
      'p.created_at',
      'p.role',
      'p.membership_plan',
      'p.membership_status',
      'p.membership_renews_at',
      'p.membership_ends_at',
    ])
    .where('p.id', '=', playerId)
    .where('p.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('play_sessions as s')
          .select('s.id')
          .whereRef('s.player_id', '=', 'p.id')
          .where('s.game_id', '=', gameId),
      ),
    )
    .executeTakeFirst();
}

export interface StatsGameRow {
  id: number;
  slug: string;
  status: string;
  save_slots: number;
  leaderboard_enabled: number;
  leaderboard_order: string;
  plays: number;
  playtime_seconds: number;
}

/** The game with this slug, whatever its status. Unique index on games.slug. */
export function findGameBySlug(db: Executor, slug: string): Promise<StatsGameRow | undefined> {
  return db
    .selectFrom('games')
    .select([
      'id',
      'slug',
      'status',
      'save_slots',
      'leaderboard_enabled',
      'leaderboard_order',
      'plays',
      playtimeSeconds('games'),
    ])
    .where('slug', '=', slug)
    .executeTakeFirst();
}
