// Developer keys (docs/backend-developers.md, "Getting a key"): `agk_` + 32 random bytes, bound to one game, with scopes; only a SHA-256 is stored.
import type { AppContext } from '../../context.js';
import { type KeyCredential, SCOPES, type Scope } from '../../http/auth.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { newSecret, secretPrefix, sha256 } from '../../lib/secrets.js';
import { formatTimestamp } from '../../time.js';
import { findGameId } from './games.repository.js';
import { findActiveKey, findKey, findKeys, insertKey, revokeKey, touchKey } from './keys.repository.js';

/** A key's last_used_at is written at most once a minute, so a busy backend's calls do not all write. */
const TOUCH_INTERVAL_MS = 60_000;

/** The developer key behind a secret, or null; writes its last use when due. */
export async function developerKeyCredential(ctx: AppContext, secret: string): Promise<KeyCredential | null> {
  const row = await findActiveKey(ctx.db, sha256(secret));
  if (!row) return null;
  const now = ctx.clock.now();
  if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) await touchKey(ctx.db, row.key_id, now);
  const scopes = new Set(row.scopes.split(' ').filter(Boolean) as Scope[]);
  return { kind: 'key', keyId: row.key_id, gameId: row.game_id, scopes };
}

/** Parses `a,b` (commas or spaces) into known scopes, without repeats. */
export function parseScopes(text: string): Scope[] {
  const names = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  if (names.length === 0) throw validationFailed({ scopes: `name at least one of ${SCOPES.join(', ')}` });
  const unknown = names.filter((n) => !(SCOPES as readonly string[]).includes(n));
  if (unknown.length)
    throw validationFailed({ scopes: `unknown scope ${unknown.join(', ')}; known: ${SCOPES.join(', ')}` });
  return names as Scope[];
}

export interface CreatedKey {
  id: number;
  game: string;
  name: string;
  scopes: Scope[];
  prefix: string;
  /** the key itself: shown once, never stored */
  key: string;
}

export async function createDeveloperKey(
  ctx: AppContext,
  input: { game: string; scopes: string; name?: string },
): Promise<CreatedKey> {
  const scopes = parseScopes(input.scopes);
  const name = (input.name ?? `${input.game} key`).trim();
  if (name.length === 0 || name.length > 80) throw validationFailed({ name: 'must be 1 to 80 characters' });
  const game = await findGameId(ctx.db, input.game);
  if (!game) throw notFound(`No game ${input.game}`);
  const key = newSecret('agk_');
  const id = await insertKey(ctx.db, {
    game_id: game.id,
    name,
    key_hash: sha256(key),
    prefix: secretPrefix(key),
    scopes: scopes.join(' '),
    created_at: ctx.clock.now(),
  });
  return { id, game: game.slug, name, scopes, prefix: secretPrefix(key), key };
}

export interface KeyView {
  id: number;
  game: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export async function listDeveloperKeys(ctx: AppContext, game?: string): Promise<KeyView[]> {
  let gameId: number | undefined;
  if (game !== undefined) {
    const row = await findGameId(ctx.db, game);
    if (!row) throw notFound(`No game ${game}`);
    gameId = row.id;
  }
  const rows = await findKeys(ctx.db, gameId);
  return rows.map((r) => ({
    id: r.id,
    game: r.game,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes.split(' ').filter(Boolean),
    created_at: formatTimestamp(r.created_at),
    last_used_at: r.last_used_at === null ? null : formatTimestamp(r.last_used_at),
    revoked_at: r.revoked_at === null ? null : formatTimestamp(r.revoked_at),
  }));
}

/**
 * Revokes a key at once (the next request with it gets 401); revoking a revoked key changes nothing. With `gameId`, a
 * key of another game is not found (a studio revokes its own game's keys only).
 */
export async function revokeDeveloperKey(ctx: AppContext, id: number, gameId?: number): Promise<{ revoked: boolean }> {
  if (!Number.isSafeInteger(id) || id < 1) throw validationFailed({ id: 'must be a key id (a positive integer)' });
  const key = await findKey(ctx.db, id);
  if (!key || (gameId !== undefined && key.game_id !== gameId)) throw notFound(`No developer key ${id}`);
  return { revoked: await revokeKey(ctx.db, id, ctx.clock.now()) };
}
