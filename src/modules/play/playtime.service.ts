// GET /me/entitlement and GET /me/playtime: reads only; neither touches a play session.
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { recentDays } from '../../time.js';
import { entitlementOf, getEntitlement, type Entitlement } from './entitlement.js';
import { findPlayerMembership, type PlayerMembership } from './play.repository.js';
import { usageBetween, type UsageDay } from './usage.repository.js';

async function membershipOf(ctx: AppContext, playerId: number): Promise<PlayerMembership> {
  const player = await findPlayerMembership(ctx.db, playerId);
  if (!player) throw notFound('No such player');
  return player;
}

export async function playerEntitlement(ctx: AppContext, playerId: number): Promise<Entitlement> {
  return getEntitlement(ctx, await membershipOf(ctx, playerId));
}

export interface Playtime {
  today: Entitlement;
  total_seconds: number;
  history: UsageDay[];
}

/** The last `days` days in reset_timezone, today first, days without play included as zeros. */
export async function playtime(ctx: AppContext, playerId: number, days: number): Promise<Playtime> {
  const player = await membershipOf(ctx, playerId);
  const now = ctx.clock.now();
  const window = recentDays(now, ctx.config.reset_timezone, days);
  const rows = await usageBetween(ctx.db, playerId, window[window.length - 1]!.day, window[0]!.day);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const history = window.map(({ day }) => byDay.get(day) ?? { day, seconds: 0, sessions: 0 });
  return {
    today: entitlementOf(ctx, player, history[0]!.seconds, now),
    total_seconds: history.reduce((sum, d) => sum + d.seconds, 0),
    history,
  };
}
