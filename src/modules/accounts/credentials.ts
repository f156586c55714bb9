// A player token becomes a credential here: from the credential cache (PostgreSQL) when it holds the token, else from
// the database, which writes the token's last use when it is due.
import type { AppContext } from '../../context.js';
import type { PlayerCredential } from '../../http/auth.js';
import { sha256 } from '../../lib/secrets.js';
import type { CredentialCache } from './credential-cache.js';
import { type ActiveTokenRow, findAndTouchActiveToken } from './tokens.repository.js';

/** A token's last_used_at is written at most this often, so the hot routes do not write on every call. */
export const TOUCH_INTERVAL_MS = 60_000;

function playerCredential(row: ActiveTokenRow, via: PlayerCredential['via']): PlayerCredential {
  const { role, membership_plan, membership_status, membership_renews_at, membership_ends_at } = row;
  const membership = { role, membership_plan, membership_status, membership_renews_at, membership_ends_at };
  return { kind: 'player', playerId: row.player_id, tokenId: row.token_id, role, membership, via };
}

/**
 * The lookup of a player token: the cache's copy when it holds the token and its last use was written less than
 * TOUCH_INTERVAL_MS ago, else the database's (stored in the cache unless a notification moved it meanwhile).
 */
export function playerTokenResolver(ctx: AppContext, cache: CredentialCache | undefined) {
  return async (token: string, via: PlayerCredential['via']): Promise<PlayerCredential | null> => {
    const now = ctx.clock.now();
    const tokenHash = sha256(token);
    const touchBefore = now - TOUCH_INTERVAL_MS;
    if (cache) {
      const cached = await cache.get(tokenHash, now, touchBefore);
      if (cached) {
        ctx.metrics.credentialLookups.inc({ result: 'hit' });
        return playerCredential(cached, via);
      }
      ctx.metrics.credentialLookups.inc({ result: 'miss' });
    }
    const generation = cache?.generation();
    const row = await findAndTouchActiveToken(ctx.db, tokenHash, now, touchBefore);
    if (!row) return null;
    const touched = row.last_used_at === null || row.last_used_at < touchBefore;
    cache?.set(tokenHash, touched ? { ...row, last_used_at: now } : row, generation);
    return playerCredential(row, via);
  };
}
