// Account self-service: resend the verification mail, change password or email, delete the account (after a grace
// period) and export the own data.
import type { AppContext } from '../../context.js';
import type { PlayerRow } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { uniqueViolation } from '../../db/unique.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { formatIso, formatTimestamp } from '../../time.js';
import { getEntitlement } from '../play/entitlement.js';
import { hidePlayerFromBoards } from '../scores/pending-deletion.service.js';
import { removePlayerFromBoards } from '../scores/scores.service.js';
import { createMailToken, emailTaken, invalidMailToken, VERIFY_EMAIL_TTL_MS } from './auth.service.js';
import { requireAccount } from './account-only.js';
import { avatarKey } from './avatar.service.js';
import { consumeEmailChangeToken, retireMailTokens } from './mail-tokens.repository.js';
import {
  deletionScheduledMail,
  emailChangeMail,
  emailChangeNoticeMail,
  verificationMail,
  verifiedName,
} from './mails.js';
import { hashPassword, verifyPassword } from './password.js';
import { membershipOf, ownPlayerView } from './player-views.js';
import { emailExists, findPlayerById, lockPlayer, updatePlayer } from './players.repository.js';
import {
  deleteDuePlayer,
  deleteOutboxMailOf,
  deleteScoreRequestsOf,
  exportDailyUsage,
  exportFavorites,
  exportRatings,
  exportPlaySessions,
  exportSaves,
  exportScores,
  exportTokens,
  PENDING_DELETION,
  playersDueForPurge,
} from './self-service.repository.js';
import { revokeAllTokens, revokeOtherTokens } from './tokens.repository.js';

/** Days between DELETE /me and the purge; a login before then cancels the deletion. */
export const DELETION_GRACE_DAYS = 30;
const DELETION_GRACE_MS = DELETION_GRACE_DAYS * 86_400_000;
/** A change-of-email link works once, for 24 hours. */
export const CHANGE_EMAIL_TTL_MS = 86_400_000;
/** Accounts purged per sweep at most (the next sweep takes the rest). */
const PURGE_BATCH = 50;

const gone = () => new AppError('unauthenticated', 'The account no longer exists');
const wrongPassword = () => new AppError('wrong_password', 'The current password is wrong');

async function requirePlayer(ctx: AppContext, playerId: number): Promise<PlayerRow> {
  const player = await findPlayerById(ctx.db, playerId);
  if (!player) throw gone();
  return player;
}

/** The player, if `password` is theirs; 403 wrong_password otherwise (403 account_required for a guest: it has none). */
async function checkPassword(ctx: AppContext, playerId: number, password: string): Promise<PlayerRow> {
  const player = await requireAccount(ctx, playerId, 'Guests have no password');
  if (!player.password_hash || !(await verifyPassword(player.password_hash, password))) throw wrongPassword();
  return player;
}

/** A new verification link (the earlier ones keep working until used or expired). */
export async function resendVerification(ctx: AppContext, playerId: number): Promise<{ sent: true; email: string }> {
  const player = await requireAccount(ctx, playerId, 'Guests have no email address');
  if (player.email_verified === 1) throw new AppError('already_verified', 'Your email address is verified already');
  const token = await createMailToken(ctx, ctx.db, player.id, 'verify_email', VERIFY_EMAIL_TTL_MS);
  ctx.mailer.send({ ...verificationMail(ctx.config, player.email!, token), playerId: player.id });
  return { sent: true, email: player.email! };
}

/** Sets a new password; every other token of the player is revoked, the one used for the call keeps working. */
export async function changePassword(
  ctx: AppContext,
  playerId: number,
  tokenId: number,
  current: string,
  next: string,
) {
  await checkPassword(ctx, playerId, current);
  const passwordHash = await hashPassword(next);
  const revoked = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    if (!(await updatePlayer(trx, playerId, { password_hash: passwordHash, updated_at: now }))) throw gone();
    await retireMailTokens(trx, playerId, 'reset_password', now);
    // A change of email asked for with the old password must not outlive it.
    await retireMailTokens(trx, playerId, 'change_email', now);
    return revokeOtherTokens(trx, playerId, null, tokenId, now);
  });
  return { password_changed: true as const, tokens_revoked: revoked };
}

/** Mails a confirmation link to the new address (and a notice to the current one); the email changes when it is used. */
export async function requestEmailChange(ctx: AppContext, playerId: number, email: string, password: string) {
  const newEmail = email.toLowerCase();
  const player = await checkPassword(ctx, playerId, password);
  if (newEmail === player.email)
    throw validationFailed({ email: 'is your current address already' }, 'This is your current address already');
  if (await emailExists(ctx.db, newEmail)) throw emailTaken();
  const token = await createMailToken(ctx, ctx.db, player.id, 'change_email', CHANGE_EMAIL_TTL_MS, newEmail);
  ctx.mailer.send({ ...emailChangeMail(ctx.config, newEmail, token), playerId: player.id });
  ctx.mailer.send({
    ...emailChangeNoticeMail(
      ctx.config,
      player.email!,
      verifiedName(player),
      player.email_verified === 1 ? newEmail : null,
    ),
    playerId: player.id,
  });
  return { pending_email: newEmail, expires_at: formatIso(ctx.clock.now() + CHANGE_EMAIL_TTL_MS) };
}

/** Uses a change-of-email token: the address is set and counts as verified; the old address's links stop working. */
export async function confirmEmailChange(ctx: AppContext, token: string) {
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock.now();
      const used = await consumeEmailChangeToken(trx, sha256(token), now);
      if (!used) throw invalidMailToken();
      const player = await lockPlayer(trx, used.player_id);
      if (player?.status !== 'active') throw invalidMailToken();
      if (await emailExists(trx, used.new_email)) throw emailTaken();
      await updatePlayer(trx, player.id, { email: used.new_email, email_verified: 1, updated_at: now });
      for (const purpose of ['verify_email', 'reset_password', 'change_email'] as const)
        await retireMailTokens(trx, player.id, purpose, now);
      return { email: used.new_email, email_verified: true as const };
    });
  } catch (error) {
    if (uniqueViolation(error) === 'email') throw emailTaken();
    throw error;
  }
}

/**
 * Schedules the account's deletion DELETION_GRACE_DAYS ahead: the profile disappears, the player leaves the
 * leaderboards and every token is revoked at once; logging in before the date cancels it. A notice goes to the address.
 */
export async function scheduleDeletion(ctx: AppContext, playerId: number, password: string) {
  const player = await checkPassword(ctx, playerId, password);
  const due = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const dueAt = now + DELETION_GRACE_MS;
    await updatePlayer(trx, playerId, { status: 'deleting', deletion_due_at: dueAt, updated_at: now });
    await revokeAllTokens(trx, playerId, now);
    await hidePlayerFromBoards(trx, playerId);
    for (const purpose of ['verify_email', 'reset_password', 'change_email'] as const)
      await retireMailTokens(trx, playerId, purpose, now);
    return dueAt;
  });
  ctx.mailer.send({
    ...deletionScheduledMail(ctx.config, player.email!, verifiedName(player), formatTimestamp(due)),
    playerId: player.id,
  });
  return { deletion_scheduled: true as const, deletion_due_at: formatTimestamp(due), grace_days: DELETION_GRACE_DAYS };
}

const isPendingDeletion = (status: string) => (PENDING_DELETION as readonly string[]).includes(status);

/**
 * Purges one account whose grace period is over: its keys leave the leaderboards' count trees, then the player row
 * goes with everything keyed by it (cascade), every mail of the account still in the outbox (to any address) and the
 * avatar file.
 */
async function purgeOne(ctx: AppContext, playerId: number): Promise<boolean> {
  const purged = await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const player = await lockPlayer(trx, playerId);
    if (
      !player ||
      !isPendingDeletion(player.status) ||
      player.deletion_due_at === null ||
      Number(player.deletion_due_at) > now
    )
      return undefined;
    await removePlayerFromBoards(trx, playerId);
    await deleteScoreRequestsOf(trx, playerId);
    await deleteOutboxMailOf(trx, playerId, player.email);
    return deleteDuePlayer(trx, playerId, now);
  });
  if (purged?.avatar_key) {
    await ctx.storage
      .delete(avatarKey(purged.avatar_key))
      .catch((err: unknown) => ctx.log.warn({ err, playerId }, 'avatar of a purged account could not be removed'));
  }
  return purged !== undefined;
}

/** Purges every account whose deletion is due; returns how many. Run by the periodic sweep and `players purge-deleted`. */
export async function purgeDeletedPlayers(ctx: AppContext): Promise<number> {
  let count = 0;
  const failed = new Set<number>();
  for (;;) {
    const due = (await playersDueForPurge(ctx.db, ctx.clock.now(), PURGE_BATCH)).filter((id) => !failed.has(id));
    for (const id of due) {
      try {
        if (await purgeOne(ctx, id)) count++;
      } catch (error) {
        // One account that cannot be purged now must not hold back the others: the next sweep tries it again.
        if (isDatabaseUnavailable(error)) throw error;
        failed.add(id);
        ctx.log.error({ err: error, playerId: id }, 'an account due for deletion could not be purged');
      }
    }
    if (due.length < PURGE_BATCH) return count;
  }
}

const parseJson = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const ts = (ms: number | null) => (ms === null ? null : formatTimestamp(Number(ms)));

/** Everything the service holds about the player, without password or token hashes. */
export async function exportData(ctx: AppContext, playerId: number) {
  const player = await requirePlayer(ctx, playerId);
  const db = ctx.db;
  const [tokens, favorites, ratings, saves, scores, sessions, usage] = await Promise.all([
    exportTokens(db, playerId),
    exportFavorites(db, playerId),
    exportRatings(db, playerId),
    exportSaves(db, playerId),
    exportScores(db, playerId),
    exportPlaySessions(db, playerId),
    exportDailyUsage(db, playerId),
  ]);
  return {
    exported_at: formatTimestamp(ctx.clock.now()),
    player: ownPlayerView(ctx.config, player),
    membership: membershipOf(player, ctx.clock.now()),
    entitlement: await getEntitlement(ctx, player),
    tokens: tokens.map((t) => ({
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      created_at: formatTimestamp(t.created_at),
      last_used_at: ts(t.last_used_at),
      token_expires_at: formatIso(Number(t.expires_at)),
      revoked_at: ts(t.revoked_at),
    })),
    favorites: favorites.map((f) => ({ game: f.slug, game_name: f.name, created_at: formatTimestamp(f.created_at) })),
    ratings: ratings.map((r) => ({
      game: r.slug,
      game_name: r.name,
      value: Number(r.value) > 0 ? ('up' as const) : ('down' as const),
      created_at: formatTimestamp(r.created_at),
      updated_at: formatTimestamp(r.updated_at),
    })),
    saves: saves.map((s) => ({
      game: s.slug,
      slot: s.slot,
      version: Number(s.version),
      label: s.label,
      state: parseJson(s.state),
      size_bytes: Number(s.size_bytes),
      created_at: formatTimestamp(s.created_at),
      updated_at: formatTimestamp(s.updated_at),
    })),
    scores: scores.map((s) => ({
      id: s.id,
      game: s.slug,
      board: s.board,
      score: Number(s.score),
      meta: parseJson(s.meta),
      play_session_id: s.play_session_id,
      created_at: formatTimestamp(s.created_at),
    })),
    play_sessions: sessions.map((s) => ({
      id: s.id,
      game: s.slug,
      status: s.status,
      started_at: formatTimestamp(s.started_at),
      last_heartbeat_at: formatTimestamp(s.last_heartbeat_at),
      ended_at: ts(s.ended_at),
      end_reason: s.end_reason,
      credited_seconds: Number(s.credited_seconds),
    })),
    daily_usage: usage.map((u) => ({ day: u.day, seconds: Number(u.seconds), sessions: Number(u.sessions) })),
  };
}
