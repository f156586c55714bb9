// Register, login, logout and the mail flows (verify email, forgot and reset password) (docs/api.md, "Accounts and authentication").
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { TokenKind } from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique.js';
import { AppError } from '../../http/errors.js';
import { newSecret, sha256 } from '../../lib/secrets.js';
import { countMergedSessions } from '../play/play.service.js';
import type { LoginInput, RegisterInput } from './accounts.schemas.js';
import { type AuthResult, authResult } from './auth-result.js';
import { claimGuestForRegister, type GuestCredential, type GuestMerge, mergeGuestIntoAccount } from './guest-claim.js';
import {
  consumeMailToken,
  findUsableMailToken,
  insertMailToken,
  retireMailTokens,
  type MailTokenPurpose,
} from './mail-tokens.repository.js';
import { passwordResetMail, verificationMail, verifiedName } from './mails.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import {
  emailExists,
  findPlayerByEmail,
  findPlayerByLogin,
  insertPlayer,
  takenUsernameKeys,
  updatePlayer,
  usernameTaken,
} from './players.repository.js';
import { restoreDeletingPlayer } from './self-service.repository.js';
import { revokeAllTokens, revokeTokens } from './tokens.repository.js';
import { issueToken } from './tokens.service.js';
import { usernameCandidates } from './username.js';
import { restorePlayerToBoards } from '../scores/pending-deletion.service.js';

export const VERIFY_EMAIL_TTL_MS = 7 * 86_400_000;
export const RESET_PASSWORD_TTL_MS = 3_600_000;

const invalidCredentials = () => new AppError('invalid_credentials', 'The login or the password is wrong');
export const emailTaken = () => new AppError('email_taken', 'An account with this email address exists already');
const usernameTakenError = () => new AppError('username_taken', 'This username is taken');

export type { AuthResult } from './auth-result.js';
export const invalidMailToken = () =>
  new AppError('invalid_token', 'This link is unknown, used or expired; ask for a new one');

/** A free username derived from the display name (one query for all candidates; more digits if every one is taken). */
async function freeUsername(db: Executor, displayName: string): Promise<string> {
  for (const digits of [4, 6, 8]) {
    const candidates = usernameCandidates(displayName, 8, digits);
    const taken = await takenUsernameKeys(
      db,
      candidates.map((c) => c.toLowerCase()),
    );
    const free = candidates.find((c) => !taken.has(c.toLowerCase()));
    if (free) return free;
  }
  throw new Error('no free username found');
}

/** A single-use mail link token for `purpose` (its hash is stored); `newEmail` is the address a change_email link confirms. */
export async function createMailToken(
  ctx: AppContext,
  db: Executor,
  playerId: number,
  purpose: MailTokenPurpose,
  ttlMs: number,
  newEmail?: string,
): Promise<string> {
  const token = newSecret('mt_');
  const now = ctx.clock.now();
  await insertMailToken(db, {
    player_id: playerId,
    purpose,
    token_hash: sha256(token),
    created_at: now,
    expires_at: now + ttlMs,
    ...(newEmail ? { new_email: newEmail } : {}),
  });
  return token;
}

/**
 * `kind` 'web' for the portal (the cookie session), 'api' otherwise: the new token makes room among its own kind only.
 * With `guest` (the call carried a guest's credential) the guest becomes the account: same id, everything kept.
 */
export async function register(
  ctx: AppContext,
  input: RegisterInput,
  tokenName: string,
  kind: TokenKind = 'api',
  guest?: GuestCredential,
): Promise<AuthResult> {
  const email = input.email.toLowerCase();
  if (await emailExists(ctx.db, email)) throw emailTaken();
  if (input.username !== undefined && (await usernameTaken(ctx.db, input.username))) throw usernameTakenError();
  const passwordHash = await hashPassword(input.password);

  // A derived username can be taken between the check and the insert: try again with other candidates.
  for (let attempt = 0; ; attempt++) {
    const username = input.username ?? (await freeUsername(ctx.db, input.display_name));
    try {
      const created = await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.clock.now();
        const fields = {
          email,
          username,
          username_key: username.toLowerCase(),
          display_name: input.display_name,
          password_hash: passwordHash,
          newsletter: input.newsletter ? (1 as const) : (0 as const),
        };
        const claimed = guest && (await claimGuestForRegister(ctx, trx, guest, fields));
        const player =
          claimed ||
          (await insertPlayer(trx, {
            ...fields,
            bio: null,
            country: null,
            avatar_key: null,
            membership_renews_at: null,
            membership_ends_at: null,
            created_at: now,
            updated_at: now,
          }));
        const issued = await issueToken(ctx, trx, player.id, tokenName, 'evict', kind);
        const verifyToken = await createMailToken(ctx, trx, player.id, 'verify_email', VERIFY_EMAIL_TTL_MS);
        return { player, issued, verifyToken, claimed: Boolean(claimed) };
      });
      ctx.mailer.send({
        ...verificationMail(ctx.config, email, created.verifyToken),
        playerId: created.player.id,
      });
      if (created.claimed) ctx.metrics.guestsClaimed.inc({ via: 'register' });
      return {
        ...(await authResult(ctx, created.player, created.issued)),
        ...(created.claimed ? { claimed_guest: { guest_id: created.player.id, via: 'register' as const } } : {}),
        expiresAt: created.issued.expiresAt,
      };
    } catch (error) {
      const column = uniqueViolation(error);
      if (column === 'email') throw emailTaken();
      if (column === 'username_key' && input.username === undefined && attempt < 3) continue;
      if (column === 'username_key') throw usernameTakenError();
      throw error;
    }
  }
}

/** A transaction run again (up to three times) when PostgreSQL picked it as a deadlock victim. */
async function retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 3) throw error;
    }
  }
}

/**
 * One answer for an unknown login and a wrong password, after comparable work (a dummy verification); a guest has no
 * password and cannot log in. With `guest` (the call carried a guest's credential) the guest is merged into the
 * account, in the transaction that issues the token.
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  tokenName: string,
  kind: TokenKind = 'api',
  guest?: GuestCredential,
): Promise<AuthResult> {
  const player = await findPlayerByLogin(ctx.db, input.login);
  if (!player?.password_hash) {
    await verifyAgainstDummy(input.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(player.password_hash, input.password))) throw invalidCredentials();
  // Said only to someone who knows the password.
  if (player.status !== 'active' && player.status !== 'deleting')
    throw new AppError('forbidden', 'This account is suspended');
  const found = player;
  // An account waiting for deletion (DELETE /me) is kept: logging in within the grace period cancels the deletion,
  // in the transaction that issues the token (a login that fails leaves the deletion pending).
  const { account, issued, deletionCanceled, merge } = await retryingDeadlocks(() =>
    ctx.db.transaction().execute(async (trx) => {
      let merge: GuestMerge | undefined;
      if (guest) merge = await mergeGuestIntoAccount(ctx, trx, guest.playerId, found);
      let account = found;
      if (found.status === 'deleting') {
        const restored = await restoreDeletingPlayer(trx, found.id, ctx.clock.now());
        if (!restored) throw invalidCredentials(); // purged or suspended in the meantime
        // Back on the leaderboards, exactly as before the deletion was asked for.
        await restorePlayerToBoards(ctx, trx, found.id);
        account = restored;
      }
      const issued = await issueToken(ctx, trx, account.id, tokenName, 'evict', kind);
      return { account, issued, deletionCanceled: found.status === 'deleting', merge };
    }),
  );
  if (merge) {
    ctx.metrics.guestsClaimed.inc({ via: 'merge' });
    countMergedSessions(ctx, merge.play);
  }
  return {
    ...(await authResult(ctx, account, issued)),
    ...(deletionCanceled ? { deletion_canceled: true as const } : {}),
    ...(merge ? { claimed_guest: merge.claimed } : {}),
    expiresAt: issued.expiresAt,
  };
}

export async function logout(ctx: AppContext, playerId: number, tokenId: number): Promise<void> {
  await revokeTokens(ctx.db, playerId, [tokenId], ctx.clock.now());
}

/**
 * Sends a reset link when the address belongs to an active player, or to one waiting for deletion (a login with the
 * new password cancels it); says nothing either way.
 */
export async function forgotPassword(ctx: AppContext, email: string): Promise<void> {
  const player = await findPlayerByEmail(ctx.db, email);
  if (!player?.email || (player.status !== 'active' && player.status !== 'deleting')) return;
  const token = await createMailToken(ctx, ctx.db, player.id, 'reset_password', RESET_PASSWORD_TTL_MS);
  ctx.mailer.send({ ...passwordResetMail(ctx.config, player.email, verifiedName(player), token), playerId: player.id });
}

export async function verifyEmail(ctx: AppContext, token: string): Promise<{ email_verified: true }> {
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const playerId = await consumeMailToken(trx, sha256(token), 'verify_email', now);
    if (playerId === undefined) throw invalidMailToken();
    await updatePlayer(trx, playerId, { email_verified: 1, updated_at: now });
    await retireMailTokens(trx, playerId, 'verify_email', now);
  });
  return { email_verified: true };
}

/**
 * Sets the new password and revokes every token of the player in one transaction. The link came by mail, so it
 * also confirms the address. The token is checked before hashing, so bad tokens cost no argon2 time.
 */
export async function resetPassword(
  ctx: AppContext,
  token: string,
  password: string,
): Promise<{ password_reset: true }> {
  const tokenHash = sha256(token);
  if (!(await findUsableMailToken(ctx.db, tokenHash, 'reset_password', ctx.clock.now()))) throw invalidMailToken();
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const playerId = await consumeMailToken(trx, tokenHash, 'reset_password', now);
    if (playerId === undefined) throw invalidMailToken();
    await updatePlayer(trx, playerId, { password_hash: passwordHash, email_verified: 1, updated_at: now });
    await revokeAllTokens(trx, playerId, now);
    await retireMailTokens(trx, playerId, 'reset_password', now);
    // A change of email asked for with the old password must not outlive it.
    await retireMailTokens(trx, playerId, 'change_email', now);
  });
  return { password_reset: true };
}
