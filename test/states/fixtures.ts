// What the state tests share: a game with slots, a player with a token, URLs.
import type { NewGame } from '../../src/db/schema.js';
import type { Scope } from '../../src/http/auth.js';
import { createGame, createKey, createPlayerWithToken, createPlaySession } from '../helpers/factories.js';
import type { Harness } from '../helpers/harness.js';

export const statesUrl = (slug: string) => `/v1/games/${slug}/states`;
export const slotUrl = (slug: string, slot: number | string) => `/v1/games/${slug}/states/${slot}`;

/** A listed game (3 slots unless told) and a player with a token. */
export async function gameAndPlayer(h: Harness, game: Partial<NewGame> = {}) {
  const g = await createGame(h.ctx, { save_slots: 3, ...game });
  const { player, token } = await createPlayerWithToken(h.ctx);
  return { game: g, player, token, list: statesUrl(g.slug), slot: (n: number | string) => slotUrl(g.slug, n) };
}

/** A player who has started a play session of the game, and a key of the game with the scopes. */
export async function keyAndPlayerOf(h: Harness, gameId: number, scopes: Scope[] = ['states:read', 'states:write']) {
  const { player, token } = await createPlayerWithToken(h.ctx);
  await createPlaySession(h.ctx, player.id, gameId);
  const { key } = await createKey(h.ctx, gameId, scopes);
  return { player, token, key };
}

/** The save_states row of a slot, read straight from the database. */
export function storedRow(h: Harness, playerId: number, gameId: number, slot: number) {
  return h.ctx.db
    .selectFrom('save_states')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .where('slot', '=', slot)
    .executeTakeFirst();
}
