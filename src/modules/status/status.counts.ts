// The counts of GET /v1/status, kept briefly per process (a module of its own: play imports it, and it stays light).
import type { AppContext } from '../../context.js';
import { countListedGames, countPlayersOnline } from './status.repository.js';

/**
 * How long this process reuses the counts of GET /status (a health check polled by every client ran two
 * count statements per call). Within one process the counts are exact at every play start, end, replacement, limit
 * and timeout, game publish and game status change this process sees: those call forgetStatusCounts. Across instances, and as sessions go idle with the
 * clock, players_online and games may lag by up to this long. Nothing else reads these counts: no credential,
 * membership or allowance decision depends on them.
 */
export const STATUS_COUNTS_TTL_MS = 1000;

interface Counts {
  at: number;
  games: number;
  playersOnline: number;
}

const counts = new WeakMap<AppContext, Counts | Promise<Counts>>();

/** Drops this process's cached counts: the next GET /status counts again (a session started or closed here). */
export function forgetStatusCounts(ctx: AppContext): void {
  counts.delete(ctx);
}

async function countNow(ctx: AppContext, now: number): Promise<Counts> {
  const idleSince = now - ctx.config.session_idle_timeout * 1000;
  const [games, playersOnline] = await Promise.all([countListedGames(ctx.db), countPlayersOnline(ctx.db, idleSince)]);
  return { at: now, games, playersOnline };
}

export async function currentCounts(ctx: AppContext, now: number): Promise<Counts> {
  const held = counts.get(ctx);
  // a promise: a count in flight, shared by the calls that arrive meanwhile
  if (held instanceof Promise) return held;
  if (held && now >= held.at && now - held.at < STATUS_COUNTS_TTL_MS) return held;
  const pending = countNow(ctx, now);
  counts.set(ctx, pending);
  try {
    const fresh = await pending;
    // unless a start or end forgot the counts while they were being read
    if (counts.get(ctx) === pending) counts.set(ctx, fresh);
    return fresh;
  } catch (error) {
    if (counts.get(ctx) === pending) counts.delete(ctx);
    throw error;
  }
}
