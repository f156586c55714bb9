// The purge of deleted accounts on a timer in the server process: accounts whose grace period is over are removed, and
// guests idle for guests.idle_days. Every process may run one (each player is purged under a row lock; a second
// purger finds it gone).
import type { AppContext } from '../../context.js';
import { purgeIdleGuests } from './guests.service.js';
import { purgeDeletedPlayers } from './self-service.service.js';

export interface PurgeSweeper {
  /** Stops the timer and waits for a purge in progress. */
  stop(): Promise<void>;
}

/** Hourly: an account is purged at most an hour after its deletion date (or at once with `players purge-deleted`), an idle guest at most an hour after its last day. */
export const PURGE_INTERVAL_MS = 3_600_000;

export function startDeletionPurge(ctx: AppContext, everyMs = PURGE_INTERVAL_MS): PurgeSweeper {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = purgeDeletedPlayers(ctx)
      .then(async (purged) => {
        if (purged > 0) ctx.log.info({ purged }, 'purged deleted accounts');
        const guests = await purgeIdleGuests(ctx);
        if (guests > 0) ctx.log.info({ guests }, 'purged idle guests');
      })
      .catch((err: unknown) =>
        ctx.log.warn({ err }, 'purge of deleted accounts failed; it runs again on the next tick'),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, Math.min(everyMs, 60_000));
  first.unref();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
