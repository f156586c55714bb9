// Guests through the API, as the portal and an app make them, shared by the guest tests.
import { expect } from 'vitest';
import type { Harness } from '../helpers/harness.js';

export const SDK = { 'x-requested-with': 'ServiceSDK' };
export const PASSWORD = 'correct horse battery';

export interface Guest {
  id: number;
  token: string;
  tokenId: number;
  username: string;
  display_name: string;
  /** the portal session cookie, when made as the portal does (with X-Requested-With) */
  cookie?: string;
}

/** A new guest: as an app (Bearer token) or, with `web`, as the portal (the session cookie). */
export async function newGuest(h: Harness, options: { web?: boolean; headers?: Record<string, string> } = {}) {
  const res = await h.http.post('/v1/auth/guest', { headers: { ...(options.web ? SDK : {}), ...options.headers } });
  expect(res.status, res.text).toBe(201);
  const { player, token } = res.body.data;
  const row = await h.ctx.db
    .selectFrom('player_tokens')
    .select('id')
    .where('player_id', '=', player.id)
    .executeTakeFirstOrThrow();
  const guest: Guest = {
    id: player.id,
    token,
    tokenId: row.id,
    username: player.username,
    display_name: player.display_name,
    cookie: res.cookies.find((c) => c.name === 'gp_session')?.value,
  };
  return guest;
}

/** Call options that present the guest's credential: its cookie (with the header) when it has one, else its token. */
export function as(guest: Pick<Guest, 'token' | 'cookie'>) {
  return guest.cookie ? { cookies: { gp_session: guest.cookie }, headers: SDK } : { token: guest.token };
}

/** A registration body with a unique email. */
let registered = 0;
export function registration(name = 'Claimer') {
  const n = `${process.pid}_${++registered}`;
  return { email: `claim${n}@example.com`, password: PASSWORD, display_name: `${name} ${n}` };
}

export async function playerExists(h: Harness, id: number): Promise<boolean> {
  return (await h.ctx.db.selectFrom('players').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
