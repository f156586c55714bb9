// A scratch folder on the local disk for one build being made (its zip, then its unpacked files), always removed after.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';

/** Under data_dir, a dot name: the local store never lists it, and no URL can name it. */
export const STAGING_FOLDER = '.staging';
/** A scratch folder this old belongs to a process that crashed while making a build. */
const STALE_MS = 6 * 60 * 60 * 1000;

export function stagingRoot(ctx: AppContext): string {
  return path.join(ctx.config.data_dir, STAGING_FOLDER, 'builds');
}

/** Removes scratch folders left by crashed processes (by their modification time on disk: no other clock knows them). */
async function removeStale(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const folder = path.join(root, name);
    const info = await stat(folder).catch(() => null);
    if (info && now - info.mtimeMs > STALE_MS) await rm(folder, { recursive: true, force: true });
  }
}

/** Runs `fn` with a fresh scratch folder, removed whatever happens. */
export async function withStaging<T>(ctx: AppContext, fn: (dir: string) => Promise<T>): Promise<T> {
  const root = stagingRoot(ctx);
  await removeStale(root).catch((error: unknown) =>
    ctx.log.warn({ err: error, root }, 'old build scratch folders could not be removed'),
  );
  const dir = path.join(root, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true }).catch((error: unknown) =>
      ctx.log.warn({ err: error, dir }, 'a build scratch folder could not be removed'),
    );
  }
}
