// Temporary folders for tests, removed when the process ends (a test file runs in its own process), so that a run
// leaves nothing in the system temp directory. No vitest here: benchmarks use the helpers too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const made = new Set<string>();

/** A new folder `<system temp>/<prefix>XXXXXX`, removed with everything in it when the process exits. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes a folder made by tempDir now. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  made.delete(dir);
}

/** The folders made by tempDir and not removed yet. */
export function liveTempDirs(): string[] {
  return [...made];
}

/** Removes every folder made by tempDir so far. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

process.once('exit', removeTempDirs);
