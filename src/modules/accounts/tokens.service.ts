// Player tokens: issued by login, register and POST /me/tokens, listed by prefix only. Ten active in all (docs/api.md, "Accounts and authentication"),
// of two kinds: 'web' sessions (a portal login or register, which sets the session cookie; also listed apart by
// GET /me/sessions) and 'api' tokens (every other login or register, and POST /me/tokens). A login with ten makes room
// among its own kind first, so a browser does not sign an app out while it has a browser to spare, and it says which
// token it revoked.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { TokenKind } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import { newSecret, secretPrefix, sha256 } from '../../lib/secrets.js';
import { formatIso, formatTimestamp } from '../../time.js';
import { requireAccount } from './account-only.js';
import { lockPlayer } from './players.repository.js';
import {
  activeTokensByLeastUse,
  insertToken,
  listActiveTokens,
  revokeOtherTokens,
  revokeTokens,
  type TokenListRow,
} from './tokens.repository.js';

/** Active tokens a player can have, of both kinds together (at most 10 active tokens). */
export const MAX_ACTIVE_TOKENS = 10;

/** What a login or register revoked to make room (`revoked_token` of the answer). */
export interface RevokedToken {
  id: number;
  kind: TokenKind;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface IssuedToken {
  id: number;
  name: string;
  token: string;
  prefix: string;
  /** epoch ms */
  expiresAt: number;
  /** the token revoked to make room, or null */
  revoked: RevokedToken | null;
}

/**
 * Issues a token of `kind` inside the caller's transaction. With ten active tokens, login and register revoke the
 * least recently used to make room ('evict'): one of the same kind while there is one, else one of the other kind;
 * POST /me/tokens refuses with 409 ('refuse'). The player row is locked first, so two logins racing cannot leave eleven.
 */
export async function issueToken(
  ctx: AppContext,
  trx: Executor,
  playerId: number,
  name: string,
  whenFull: 'evict' | 'refuse',
  kind: TokenKind = 'api',
): Promise<IssuedToken> {
  const now = ctx.clock.now();
  await lockPlayer(trx, playerId);
  const active = await activeTokensByLeastUse(trx, playerId, now);
  const excess = active.length - (MAX_ACTIVE_TOKENS - 1);
  let revoked: RevokedToken | null = null;
  if (excess > 0) {
    if (whenFull === 'refuse') {
      throw new AppError(
        'token_limit_reached',
        `A player can have at most ${MAX_ACTIVE_TOKENS} active tokens and signed-in browsers; revoke one first`,
      );
    }
    const byRoom = [...active.filter((t) => t.kind === kind), ...active.filter((t) => t.kind !== kind)];
    const victims = byRoom.slice(0, excess);
    await revokeTokens(
      trx,
      playerId,
      victims.map((t) => t.id),
      now,
    );
    // Normally exactly one; more only if the limit was lowered: the answer names the last of them.
    revoked = revokedView(victims[victims.length - 1]!);
  }
  const token = newSecret('agp_');
  const expiresAt = now + ctx.config.api.token_ttl_days * 86_400_000;
  const id = await insertToken(trx, {
    player_id: playerId,
    name,
    token_hash: sha256(token),
    prefix: secretPrefix(token),
    created_at: now,
    expires_at: expiresAt,
    kind,
  });
  return { id, name, token, prefix: secretPrefix(token), expiresAt, revoked };
}

function revokedView(row: TokenListRow): RevokedToken {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    prefix: row.prefix,
    created_at: formatTimestamp(row.created_at),
    last_used_at: row.last_used_at === null ? null : formatTimestamp(row.last_used_at),
  };
}

function recordView(row: TokenListRow, currentTokenId: number) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: formatTimestamp(row.created_at),
    last_used_at: row.last_used_at === null ? null : formatTimestamp(row.last_used_at),
    token_expires_at: formatIso(row.expires_at),
    current: row.id === currentTokenId,
  };
}

/** Every active token of the player, each with its kind (the spec's list of the player's tokens; listSessions shows the web ones alone). */
export async function listTokens(ctx: AppContext, playerId: number, currentTokenId: number) {
  const rows = await listActiveTokens(ctx.db, playerId, null, ctx.clock.now());
  return rows.map((r) => ({ ...recordView(r, currentTokenId), kind: r.kind }));
}

/** The player's signed-in browsers (active web sessions); `current` marks the one of this call. */
export async function listSessions(ctx: AppContext, playerId: number, currentTokenId: number) {
  const rows = await listActiveTokens(ctx.db, playerId, 'web', ctx.clock.now());
  return rows.map((r) => {
    const { prefix: _prefix, ...view } = recordView(r, currentTokenId);
    return view;
  });
}

export async function createToken(ctx: AppContext, playerId: number, name: string) {
  await requireAccount(ctx, playerId, 'Guests have no API tokens');
  const issued = await ctx.db.transaction().execute((trx) => issueToken(ctx, trx, playerId, name, 'refuse', 'api'));
  return {
    id: issued.id,
    name: issued.name,
    token: issued.token,
    prefix: issued.prefix,
    token_expires_at: formatIso(issued.expiresAt),
  };
}

/** Revokes one of the player's active tokens, of either kind (a web session signs that browser out); another player's token, or one already revoked or expired, is 404. */
export async function deleteToken(
  ctx: AppContext,
  playerId: number,
  tokenId: number,
): Promise<{ id: number; revoked: true }> {
  const revoked = await revokeTokens(ctx.db, playerId, [tokenId], ctx.clock.now());
  if (revoked === 0) throw notFound('No active token with this id');
  return { id: tokenId, revoked: true };
}

/** Signs one browser out: revokes one of the player's active web sessions; anything else is 404. */
export async function deleteSession(
  ctx: AppContext,
  playerId: number,
  sessionId: number,
): Promise<{ id: number; revoked: true }> {
  const revoked = await revokeTokens(ctx.db, playerId, [sessionId], ctx.clock.now(), 'web');
  if (revoked === 0) throw notFound('No signed-in browser with this id');
  return { id: sessionId, revoked: true };
}

/** Signs every other browser out: revokes the player's web sessions except the one making the call. */
export async function deleteOtherSessions(
  ctx: AppContext,
  playerId: number,
  currentTokenId: number,
): Promise<{ revoked: number }> {
  return { revoked: await revokeOtherTokens(ctx.db, playerId, 'web', currentTokenId, ctx.clock.now()) };
}
