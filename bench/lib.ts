// What the benchmarks share: a scratch database per run and latency percentiles.
import type { DialectName } from '../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../test/helpers/database.js';

/** The admin connection for PostgreSQL runs: BENCH_DATABASE_URL, else TEST_DATABASE_URL. */
export const benchAdminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

/** SQLite always; PostgreSQL when an admin connection is set. */
export const benchDialects: DialectName[] = ['sqlite', ...(benchAdminUrl ? (['postgres'] as const) : [])];

/** A fresh database for one run (a temporary SQLite file, or a new PostgreSQL database), dropped by `drop()`. */
export function scratchDatabase(dialect: DialectName): Promise<TestDatabase> {
  return createTestDatabase(dialect, benchAdminUrl);
}

/** The p-th percentile of ascending `sorted` samples (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
