// At start, a database that cannot be reached yet (still starting, failing over) is waited for, with backoff, for a while.
import { isDatabaseUnavailable, rootMessage } from './unavailable.js';

export interface WaitOptions {
  /** how long to keep retrying, from the first try; 0: fail at the first error */
  timeoutMs: number;
  log: { warn(message: string): void; info(message: string): void };
  /** for tests: the time and the pause */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` (connect, migrate, …); while it fails because the database is unreachable, logs why and runs it again
 * after a growing delay (0.5 s, doubling, at most 10 s), until `timeoutMs` has passed. Any other error ends it at once.
 */
export async function whileDatabaseUnreachable<T>(
  what: string,
  task: () => Promise<T>,
  options: WaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? pause;
  const started = now();
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await task();
      if (attempt > 1) options.log.info(`the database answers: ${what} done after ${attempt} attempts`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const waited = now() - started;
      const reason = rootMessage(error);
      if (waited >= options.timeoutMs) {
        throw new Error(
          `The database cannot be reached (${reason}); gave up ${what} after ${Math.round(waited / 1000)} s (database_connect_timeout_seconds)`,
          { cause: error },
        );
      }
      const wait = Math.min(delay, options.timeoutMs - waited);
      options.log.warn(
        `the database cannot be reached (${reason}) while ${what}; retrying in ${wait / 1000} s (gives up after ${options.timeoutMs / 1000} s)`,
      );
      await sleep(wait);
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    }
  }
}
