// The Entitlement object: today's allowance, use and reset, computed in reset_timezone from the injected clock.
import { Type, type Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { dayWindow } from '../../time.js';
import { playsWithoutLimit, type MembershipFields } from '../accounts/membership.js';
import { usedSeconds } from './usage.repository.js';

export const EntitlementSchema = Type.Object(
  {
    unlimited: Type.Boolean({ description: 'true for Unlimited members and staff: no daily limit' }),
    allowance_seconds: Type.Integer({ description: 'daily free allowance (free_seconds_per_day)' }),
    used_seconds: Type.Integer({
      description: 'seconds played today, all games (counted for everyone, Unlimited members and staff too)',
    }),
    remaining_seconds: Type.Union([Type.Integer(), Type.Null()], {
      description: 'seconds left today; null when unlimited',
    }),
    limit_reached: Type.Boolean({
      description:
        'true when a free player has used the whole allowance today (POST /play/start answers 402 limit_reached); always false when unlimited',
    }),
    resets_in_seconds: Type.Integer({
      description: 'seconds until the next midnight in reset_timezone (a day there can last 23 or 25 hours)',
    }),
    day: Type.String({ description: 'today, YYYY-MM-DD in reset_timezone', examples: ['2026-11-21'] }),
  },
  { title: 'Entitlement', description: "Entitlement: the player's daily play allowance today" },
);

export type Entitlement = Static<typeof EntitlementSchema>;

/** Builds the Entitlement from a known use of today (no query). */
export function entitlementOf(
  ctx: AppContext,
  player: MembershipFields,
  used: number,
  now = ctx.clock.now(),
): Entitlement {
  const today = dayWindow(now, ctx.config.reset_timezone);
  const unlimited = playsWithoutLimit(player, now);
  const allowance = ctx.config.free_seconds_per_day;
  return {
    unlimited,
    allowance_seconds: allowance,
    used_seconds: used,
    remaining_seconds: unlimited ? null : Math.max(0, allowance - used),
    limit_reached: !unlimited && used >= allowance,
    resets_in_seconds: Math.ceil((today.end - now) / 1000),
    day: today.day,
  };
}

/** The player's entitlement now. */
export async function getEntitlement(
  ctx: AppContext,
  player: MembershipFields & { id: number },
  db: Executor = ctx.db,
): Promise<Entitlement> {
  const now = ctx.clock.now();
  const used = await usedSeconds(db, player.id, dayWindow(now, ctx.config.reset_timezone).day);
  return entitlementOf(ctx, player, used, now);
}
