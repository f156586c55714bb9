// `gameplatform storage copy`: moves a deployment from files under data_dir to the object store storage_url names.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../../config.js';
import { LocalStore } from './local-store.js';
import { openStore } from './storage.js';
import { StorageError, type ObjectStore } from './store.js';

/** What the store keeps: uploaded avatars, every game's file sets and its listing pictures (uploads in parts are transient). */
export const STORED_FOLDERS = ['avatars/', 'games/', 'media/'] as const;

export interface CopyResult {
  copied: number;
  skipped: number;
  bytes: number;
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Copies every object of `source` (files under a data_dir) into `target`. An object already there with the same size
 * and the same content (S3's ETag of a one-part upload is the MD5 of the bytes) is skipped, so a second run, or a run
 * after an interruption, copies only what is missing or different.
 */
export async function copyStore(
  source: LocalStore,
  target: ObjectStore,
  root: string,
  progress: (line: string, done: boolean) => void,
): Promise<CopyResult> {
  const result: CopyResult = { copied: 0, skipped: 0, bytes: 0 };
  const report = (done: boolean) =>
    progress(
      `copied ${result.copied}, already there ${result.skipped} (${(result.bytes / 1024 / 1024).toFixed(1)} MB copied)`,
      done,
    );
  for (const folder of STORED_FOLDERS) {
    for await (const object of source.list(folder)) {
      const file = path.join(root, object.key);
      const there = await target.head(object.key);
      const same =
        there &&
        there.size === object.size &&
        (there.etag === object.etag || there.etag.replace(/"/g, '') === (await md5Of(file)));
      if (same) result.skipped++;
      else {
        await target.put(object.key, { file });
        result.copied++;
        result.bytes += object.size;
      }
      if ((result.copied + result.skipped) % 100 === 0) report(false);
    }
  }
  report(true);
  return result;
}

export function registerStorageCommands(program: Command, load: () => Config = () => loadConfig()): void {
  const storage = program.command('storage').description('where avatars and game files are stored (storage_url)');
  storage
    .command('copy')
    .option('--from <dir>', 'the data_dir whose files to copy (default: data_dir)')
    .description(
      'copy the avatars and game files under data_dir into the object store of storage_url (skips what is already there)',
    )
    .action(async (options: { from?: string }) => {
      const config = load();
      if (!config.storage_url)
        throw new StorageError('storage_url (GP_STORAGE_URL) is not set: there is no object store to copy into');
      const root = path.resolve(options.from ?? config.data_dir);
      const target = await openStore(config);
      try {
        await target.check();
        const tty = process.stderr.isTTY;
        console.error(`copying ${root} to ${target.location}`);
        const result = await copyStore(new LocalStore(root), target, root, (line, done) => {
          if (tty) process.stderr.write(`\r${line}${done ? '\n' : ''}`);
          else if (!done) console.error(line);
        });
        console.log(`copied ${result.copied} files (${result.bytes} bytes); ${result.skipped} were already there`);
      } finally {
        target.close();
      }
    });
}
