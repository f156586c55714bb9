// Who may act for whom on a game's per-player data: the one decision the state routes (and the /dev adapters) share.
import type { AppContext } from '../../context.js';
import type { Credential } from '../../http/auth.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { findListedGame, isActivePlayerOfGame, type ListedGameRow } from './states.repository.js';

/** The listed game (published or beta) with this slug; 404 not_found for unknown, draft and retired games. */
export async function requireListedGame(ctx: AppContext, slug: string): Promise<ListedGameRow> {
  const game = await findListedGame(ctx.db, slug);
  if (!game) throw notFound('No such game');
  return game;
}

/**
 * The player a credential acts for on `game`, given the `player_id` the caller named (if any).
 * - Player token or portal session: always the player themself; naming another player is 403 forbidden.
 * - Developer key: must belong to the game (else 403 forbidden) and name the player (else 422); the player must be
 *   active and have started a play session of the game (else 404 not_found, as for an unknown player).
 * Scopes are checked before this, by the route's `config.scope`.
 */
export async function actingPlayer(
  ctx: AppContext,
  credential: Credential,
  game: { id: number },
  namedPlayerId: number | undefined,
): Promise<number> {
  if (credential.kind === 'player') {
    if (namedPlayerId !== undefined && namedPlayerId !== credential.playerId) {
      throw new AppError('forbidden', 'A player credential can only act for its own player; leave out player_id');
    }
    return credential.playerId;
  }
  if (credential.gameId !== game.id) throw new AppError('forbidden', 'This developer key belongs to another game');
  if (namedPlayerId === undefined) throw validationFailed({ player_id: 'is required with a developer key' });
  if (!(await isActivePlayerOfGame(ctx.db, namedPlayerId, game.id))) throw notFound('No such player of this game');
  return namedPlayerId;
}
