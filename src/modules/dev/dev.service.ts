// The /dev routes' own rules: a key sees only players of its game, and only its game's statistics (docs/backend-developers.md, "Rules").
// Everything else is the other modules' services, called with the key as the credential.
import type { AppContext } from '../../context.js';
import type { KeyCredential } from '../../http/auth.js';
import { AppError, notFound } from '../../http/errors.js';
import { profileOf } from '../accounts/accounts.service.js';
import { getEntitlement, type Entitlement } from '../play/entitlement.js';
import type { DevProfile } from './dev.schemas.js';
import { findGameBySlug, findPlayerOfGame, type PlayerOfGameRow, type StatsGameRow } from './dev.repository.js';
import { isListed } from '../games/manifest.js';

/** The player, if active and a player of the game (has started a play session of it); else undefined. */
export function playerOfGame(ctx: AppContext, playerId: number, gameId: number): Promise<PlayerOfGameRow | undefined> {
  return findPlayerOfGame(ctx.db, playerId, gameId);
}

/** The player, if active and a player of the key's game (has started a play session of it); anyone else is 404 alike. */
async function requirePlayerOfKeyGame(ctx: AppContext, key: KeyCredential, playerId: number): Promise<PlayerOfGameRow> {
  const player = await findPlayerOfGame(ctx.db, playerId, key.gameId);
  if (!player) throw notFound('No such player of this game');
  return player;
}

/** GET /dev/players/{id}: the public profile, as GET /players/{username} gives it. */
export async function devPlayerProfile(ctx: AppContext, key: KeyCredential, playerId: number): Promise<DevProfile> {
  return profileOf(ctx, await requirePlayerOfKeyGame(ctx, key, playerId));
}

/** GET /dev/players/{id}/entitlement: the Entitlement the player sees in GET /me/entitlement (reads only). */
export async function devPlayerEntitlement(
  ctx: AppContext,
  key: KeyCredential,
  playerId: number,
): Promise<Entitlement> {
  return getEntitlement(ctx, await requirePlayerOfKeyGame(ctx, key, playerId));
}

/**
 * The key's own game named by `slug`, in any status (a studio keeps its statistics after retiring a game).
 * Another listed game is 403 forbidden, as on the general routes; unknown slugs and other games that are not listed
 * are 404 not_found, so a key cannot probe for unreleased games.
 */
export async function requireOwnGame(ctx: AppContext, key: KeyCredential, slug: string): Promise<StatsGameRow> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game || (game.id !== key.gameId && !isListed(game.status))) throw notFound('No such game');
  if (game.id !== key.gameId) throw new AppError('forbidden', 'This developer key belongs to another game');
  return game;
}
