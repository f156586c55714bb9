// Readiness for GET /readyz: the database answers within a second and has every migration of this version.
import type { AppContext } from '../../context.js';
import { pendingMigrations } from '../../db/migrate.js';

export const READY_TIMEOUT_MS = 1000;

/** Why the service is not ready, as told to the probe: coarse, no internals (the log has the database's errors). */
export type NotReady = 'database_unreachable' | 'migrations_pending';

export type Readiness = { ready: true } | { ready: false; reason: NotReady; detail: string };

export async function readiness(ctx: AppContext, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  const check = pendingMigrations(ctx.db).then(
    (pending): Readiness =>
      pending.length
        ? { ready: false, reason: 'migrations_pending', detail: `not applied: ${pending.join(', ')}` }
        : { ready: true },
    (error: unknown): Readiness => ({ ready: false, reason: 'database_unreachable', detail: (error as Error).message }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: 'database_unreachable', detail: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
