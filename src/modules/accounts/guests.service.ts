// Guest players (docs/api.md, "Guests"): a visitor who presses Play gets a player with no email and no password, held
// by its token (the portal's session cookie). New guests per address per day are capped; idle guests are purged.
import { createHmac, randomInt } from 'node:crypto';
import type { AppContext } from '../../context.js';
import type { TokenKind } from '../../db/schema.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { uniqueViolation } from '../../db/unique.js';
import { AppError } from '../../http/errors.js';
import { dayWindow } from '../../time.js';
import { removePlayerFromBoards } from '../scores/scores.service.js';
import { type AuthResult, authResult } from './auth-result.js';
import {
  countNewGuest,
  deleteGuestRow,
  forgetQuotasBefore,
  idleGuests,
  isIdleGuest,
  lockGuest,
} from './guests.repository.js';
import { insertPlayer } from './players.repository.js';
import { deleteScoreRequestsOf } from './self-service.repository.js';
import { issueToken } from './tokens.service.js';

/** Crockford's base 32: no I, L, O or U, so a name read aloud or copied is never ambiguous. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** A guest's names: the display name "Guest 7F3K" (the code's first four), the username guest_7f3k… (all twelve). */
export function guestNames(): { username: string; display_name: string } {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return { username: `guest_${code.toLowerCase()}`, display_name: `Guest ${code.slice(0, 4)}` };
}

/** The address as stored in guest_quotas: keyed with `secret`, so the table holds no address. */
function addressKey(ctx: AppContext, address: string): string {
  return createHmac('sha256', ctx.config.secret).update(address).digest('base64url').slice(0, 32);
}

/** 429 guest_limit_reached, with the seconds to the reset (when the address may make guests again). */
function guestLimit(ctx: AppContext, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((dayWindow(now, ctx.config.reset_timezone).end - now) / 1000));
  return new AppError(
    'guest_limit_reached',
    'Too many guest players were started from your network today: log in or create a free account to play',
    { retry_after: seconds },
  );
}

/**
 * POST /auth/guest: a new guest and its token (of `kind`: 'web' for the portal's cookie), if the address has not made
 * guests.per_ip_per_day guests today. The count and the guest are written in one transaction: a refused or failed
 * call leaves neither.
 */
export async function createGuest(
  ctx: AppContext,
  address: string,
  tokenName: string,
  kind: TokenKind,
): Promise<AuthResult> {
  const cap = ctx.config.guests.per_ip_per_day;
  if (cap === 0) throw guestLimit(ctx, ctx.clock.now());
  for (let attempt = 0; ; attempt++) {
    try {
      const { player, issued } = await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.clock.now();
        const day = dayWindow(now, ctx.config.reset_timezone).day;
        if (!(await countNewGuest(trx, addressKey(ctx, address), day, cap))) throw guestLimit(ctx, now);
        const names = guestNames();
        const player = await insertPlayer(trx, {
          email: null,
          password_hash: null,
          guest: 1,
          username: names.username,
          username_key: names.username,
          display_name: names.display_name,
          bio: null,
          country: null,
          avatar_key: null,
          membership_renews_at: null,
          membership_ends_at: null,
          created_at: now,
          updated_at: now,
        });
        const issued = await issueToken(ctx, trx, player.id, tokenName, 'evict', kind);
        return { player, issued };
      });
      ctx.metrics.guestsCreated.inc();
      return { ...(await authResult(ctx, player, issued)), expiresAt: issued.expiresAt };
    } catch (error) {
      // 32^12 names: a taken one is all but impossible, and simply drawn again.
      if (uniqueViolation(error) === 'username_key' && attempt < 3) continue;
      throw error;
    }
  }
}

/** Guests purged per sweep at most (the next sweep takes the rest). */
const PURGE_BATCH = 100;

/**
 * Purges one guest idle since `cutoff`, if it still is under the lock: off the leaderboards' count trees, then the row
 * with everything keyed by it (tokens, saves, scores, sessions, usage, favourites: cascade).
 */
async function purgeGuest(ctx: AppContext, id: number, cutoff: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockGuest(trx, id)) || !(await isIdleGuest(trx, id, cutoff))) return false;
    await removePlayerFromBoards(trx, id);
    await deleteScoreRequestsOf(trx, id);
    return deleteGuestRow(trx, id);
  });
}

/**
 * Purges every guest with no token made or used for guests.idle_days (or `idleDays`), and forgets the guest counts of
 * days gone by; returns how many guests went. Run by the hourly sweep and `players purge-guests`; safe in parallel.
 */
export async function purgeIdleGuests(ctx: AppContext, idleDays = ctx.config.guests.idle_days): Promise<number> {
  const now = ctx.clock.now();
  await forgetQuotasBefore(ctx.db, dayWindow(now, ctx.config.reset_timezone).day);
  const cutoff = now - idleDays * 86_400_000;
  let count = 0;
  const failed = new Set<number>();
  for (;;) {
    const due = (await idleGuests(ctx.db, cutoff, PURGE_BATCH)).filter((id) => !failed.has(id));
    for (const id of due) {
      try {
        if (await purgeGuest(ctx, id, cutoff)) count++;
        else failed.add(id); // used meanwhile: not idle any more
      } catch (error) {
        // One guest that cannot be purged now must not hold back the others: the next sweep tries it again.
        if (isDatabaseUnavailable(error)) throw error;
        failed.add(id);
        ctx.log.error({ err: error, playerId: id }, 'an idle guest could not be purged');
      }
    }
    if (due.length < PURGE_BATCH) break;
  }
  if (count > 0) ctx.metrics.guestsPurged.inc(count);
  return count;
}
