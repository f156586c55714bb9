// Readiness for GET /readyz: the database answers within the budget (readiness_timeout_ms) and has every migration
// of this version, read on the probe's own connection so that requests holding the pool never delay the answer.
import type { ReadinessProbe } from '../../db/probe.js';
import { migrations } from '../../db/migrations/index.js';

/** Why the service is not ready, as told to the probe: coarse, no internals (the log has the database's errors). */
export type NotReady = 'database_unreachable' | 'migrations_pending';

export type Readiness = { ready: true } | { ready: false; reason: NotReady; detail: string };

const known = Object.keys(migrations);

export async function readiness(probe: ReadinessProbe, budgetMs: number): Promise<Readiness> {
  const check = probe.appliedMigrations(budgetMs).then(
    (applied): Readiness => {
      const done = new Set(applied);
      const pending = known.filter((name) => !done.has(name));
      return pending.length
        ? { ready: false, reason: 'migrations_pending', detail: `not applied: ${pending.join(', ')}` }
        : { ready: true };
    },
    (error: unknown): Readiness => ({ ready: false, reason: 'database_unreachable', detail: (error as Error).message }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: 'database_unreachable', detail: `no answer within ${budgetMs} ms` }),
      budgetMs,
    );
  });
  try {
    return await Promise.race([check, late]);
  } finally {
    clearTimeout(timer);
  }
}
