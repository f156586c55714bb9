// The sweep of unfinished uploads on a timer in the server process: every process may run one (uploads.service).
import type { AppContext } from '../../context.js';
import { sweepUploads } from './uploads.service.js';

export interface UploadSweeper {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Every ten minutes: an expired upload's parts stay in the store at most that long past builds.upload_ttl_hours. */
export const UPLOAD_SWEEP_MS = 600_000;

export function startUploadSweep(ctx: AppContext, everyMs = UPLOAD_SWEEP_MS): UploadSweeper {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = sweepUploads(ctx)
      .then((removed) => {
        if (removed > 0) ctx.log.info({ removed }, 'removed unfinished build uploads');
      })
      .catch((err: unknown) =>
        ctx.log.warn({ err }, 'sweep of unfinished uploads failed; it runs again on the next tick'),
      )
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
