// What the /dev tests share: a game with a player who has played it, keys, and the URLs of the /dev routes.
import { expect } from 'vitest';
import type { NewGame } from '../../src/db/schema.js';
import { SCOPES, type Scope } from '../../src/http/auth.js';
import {
  createGame,
  createKey,
  createPlayerWithToken,
  createPlaySession,
  type PlayerOptions,
} from '../helpers/factories.js';
import type { Harness } from '../helpers/harness.js';
import type { Response } from '../helpers/request.js';

export const devUrl = {
  player: (id: number | string) => `/v1/dev/players/${id}`,
  entitlement: (id: number | string) => `/v1/dev/players/${id}/entitlement`,
  states: (slug: string, id: number | string) => `/v1/dev/games/${slug}/players/${id}/states`,
  state: (slug: string, id: number | string, slot: number | string) =>
    `/v1/dev/games/${slug}/players/${id}/states/${slot}`,
  scores: (slug: string, id: number | string) => `/v1/dev/games/${slug}/players/${id}/scores`,
  stats: (slug: string) => `/v1/dev/games/${slug}/stats`,
};

/** A listed game (3 slots, leaderboard on unless told), a player of it (one closed play session) with a token, and a key with every scope. */
export async function gameWithPlayer(h: Harness, game: Partial<NewGame> = {}, player: PlayerOptions = {}) {
  const g = await createGame(h.ctx, { save_slots: 3, ...game });
  const who = await createPlayerWithToken(h.ctx, player);
  await createPlaySession(h.ctx, who.player.id, g.id);
  const { key } = await createKey(h.ctx, g.id, [...SCOPES]);
  return { game: g, player: who.player, token: who.token, key };
}

/** A key of the game with exactly these scopes. */
export async function keyWith(h: Harness, gameId: number, scopes: Scope[]): Promise<string> {
  return (await createKey(h.ctx, gameId, scopes)).key;
}

export function expectError(res: Response, status: number, code: string) {
  expect({ status: res.status, code: res.body?.error?.code }, res.text).toEqual({ status, code });
}
