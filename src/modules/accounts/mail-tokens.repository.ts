// Queries on mail_tokens: single-use tokens sent by mail (email verification, password reset, change of email); only a SHA-256 is stored.
import type { Executor } from '../../db/connect.js';

export type MailTokenPurpose = 'verify_email' | 'reset_password' | 'change_email';

export async function insertMailToken(
  db: Executor,
  token: {
    player_id: number;
    purpose: MailTokenPurpose;
    token_hash: string;
    created_at: number;
    expires_at: number;
    new_email?: string;
  },
): Promise<void> {
  await db.insertInto('mail_tokens').values(token).execute();
}

/**
 * Uses the token: one conditional UPDATE, so two requests racing with the same token cannot both succeed.
 * Returns the player, or undefined when the token is unknown, used, expired or meant for something else.
 */
export async function consumeMailToken(
  db: Executor,
  tokenHash: string,
  purpose: MailTokenPurpose,
  now: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('player_id')
    .executeTakeFirst();
  return row?.player_id;
}

/** Uses a change_email token like consumeMailToken; returns the player and the address the token was made for. */
export async function consumeEmailChangeToken(
  db: Executor,
  tokenHash: string,
  now: number,
): Promise<{ player_id: number; new_email: string } | undefined> {
  const row = await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', 'change_email')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['player_id', 'new_email'])
    .executeTakeFirst();
  return row && row.new_email !== null ? { player_id: row.player_id, new_email: row.new_email } : undefined;
}

/** Marks every unused token of this purpose as used (after a reset, the other reset links stop working). */
export async function retireMailTokens(
  db: Executor,
  playerId: number,
  purpose: MailTokenPurpose,
  now: number,
): Promise<void> {
  await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('player_id', '=', playerId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Whether the token would work now, for an active player or one waiting for deletion (read only; consumeMailToken decides). */
export async function findUsableMailToken(
  db: Executor,
  tokenHash: string,
  purpose: MailTokenPurpose,
  now: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('mail_tokens as t')
    .innerJoin('players as p', 'p.id', 't.player_id')
    .select('t.id')
    .where('t.token_hash', '=', tokenHash)
    .where('t.purpose', '=', purpose)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('p.status', 'in', ['active', 'deleting'])
    .executeTakeFirst();
  return row !== undefined;
}
