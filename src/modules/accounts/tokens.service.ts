// Player tokens: issued by login, register and POST /me/tokens, at most ten active per player, listed by prefix only.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { AppError, notFound } from '../../http/errors.js';
import { newSecret, secretPrefix, sha256 } from '../../lib/secrets.js';
import { formatIso, formatTimestamp } from '../../time.js';
import { lockPlayer } from './players.repository.js';
import { activeTokenIdsByLeastUse, insertToken, listActiveTokens, revokeTokens } from './tokens.repository.js';

export const MAX_ACTIVE_TOKENS = 10;

export interface IssuedToken {
  id: number;
  name: string;
  token: string;
  prefix: string;
  /** epoch ms */
  expiresAt: number;
}

/**
 * Issues a token inside the caller's transaction. With ten active tokens, login and register revoke the least
 * recently used to make room ('evict'); POST /me/tokens refuses with 409 ('refuse'). The player row is locked
 * first, so two logins racing cannot leave eleven.
 */
export async function issueToken(ctx: AppContext, trx: Executor, playerId: number, name: string, whenFull: 'evict' | 'refuse'): Promise<IssuedToken> {
  const now = ctx.clock.now();
  await lockPlayer(trx, playerId);
  const active = await activeTokenIdsByLeastUse(trx, playerId, now);
  const excess = active.length - (MAX_ACTIVE_TOKENS - 1);
  if (excess > 0) {
    if (whenFull === 'refuse') {
      throw new AppError('token_limit_reached', `A player can have at most ${MAX_ACTIVE_TOKENS} active tokens; delete one first`);
    }
    await revokeTokens(trx, playerId, active.slice(0, excess), now);
  }
  const token = newSecret('agp_');
  const expiresAt = now + ctx.config.api.token_ttl_days * 86_400_000;
  const id = await insertToken(trx, { player_id: playerId, name, token_hash: sha256(token), prefix: secretPrefix(token), created_at: now, expires_at: expiresAt });
  return { id, name, token, prefix: secretPrefix(token), expiresAt };
}

export async function listTokens(ctx: AppContext, playerId: number, currentTokenId: number) {
  const rows = await listActiveTokens(ctx.db, playerId, ctx.clock.now());
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_at: formatTimestamp(r.created_at),
    last_used_at: r.last_used_at === null ? null : formatTimestamp(r.last_used_at),
    token_expires_at: formatIso(r.expires_at),
    current: r.id === currentTokenId,
  }));
}

export async function createToken(ctx: AppContext, playerId: number, name: string) {
  const issued = await ctx.db.transaction().execute((trx) => issueToken(ctx, trx, playerId, name, 'refuse'));
  return { id: issued.id, name: issued.name, token: issued.token, prefix: issued.prefix, token_expires_at: formatIso(issued.expiresAt) };
}

/** Revokes one of the player's active tokens; another player's token, or one already revoked or expired, is 404. */
export async function deleteToken(ctx: AppContext, playerId: number, tokenId: number): Promise<{ id: number; revoked: true }> {
  const revoked = await revokeTokens(ctx.db, playerId, [tokenId], ctx.clock.now());
  if (revoked === 0) throw notFound('No active token with this id');
  return { id: tokenId, revoked: true };
}
