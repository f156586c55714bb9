// The idle sweep on a timer in the server process: every process may run one (the sweep is a single conditional UPDATE).
import type { AppContext } from '../../context.js';
import { sweepIdleSessions } from './play.service.js';

export interface Sweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** A fifth of session_idle_timeout, at most a minute: a session closes at most that long after it went idle. */
export function sweepIntervalMs(ctx: AppContext): number {
  return Math.min(60_000, Math.max(1000, (ctx.config.session_idle_timeout * 1000) / 5));
}

export function startIdleSweep(ctx: AppContext, everyMs = sweepIntervalMs(ctx)): Sweeper {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return; // a slow sweep is not stacked on itself
    running = sweepIdleSessions(ctx)
      .then((closed) => {
        if (closed > 0) ctx.log.info({ closed }, 'closed idle play sessions');
      })
      .catch((err: unknown) => ctx.log.warn({ err }, 'idle play-session sweep failed; it runs again on the next tick'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
