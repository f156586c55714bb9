// `gameplatform games compress [<slug>]`: stores the compressed copies that file sets published before copies were made
// at publish lack, so that their files are sent compressed without compressing them per request.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { ObjectStore } from '../../services/storage/store.js';
import { COPIES_MARKER, storeCopies, type SetFiles } from './file-copies.js';
import { slugPrefix } from './files.js';
import { findServedFileSets } from './games.repository.js';
import { PUBLISH_LIMITS } from './publish.service.js';

export interface CompressedSet {
  slug: string;
  set: string;
  /** true when the set had its copies already (its marker), and nothing was read */
  done_before: boolean;
  copies: number;
  decoded: number;
  /** compressed files that could not be decoded (left as they are) */
  unreadable: string[];
}

/** The set's files in the store, read into `scratch` one at a time as the copies need them. */
async function storedFiles(store: ObjectStore, prefix: string, scratch: string): Promise<SetFiles> {
  const sizes = new Map<string, number>();
  for await (const object of store.list(`${prefix}/`)) {
    const name = object.key.slice(prefix.length + 1);
    // Markers and (on a bucket) anything else with a dot name are not game files.
    if (!name.split('/').some((segment) => segment.startsWith('.'))) sizes.set(name, object.size);
  }
  let n = 0;
  return {
    names: [...sizes.keys()],
    sizeOf: (name) => sizes.get(name),
    async local(name) {
      const object = await store.get(`${prefix}/${name}`);
      if (!object) throw notFound(`${prefix}/${name} vanished from the store`);
      const file = path.join(scratch, `download-${n++}`);
      await pipeline(object.body, createWriteStream(file));
      return file;
    },
    release: (file) => rm(file, { force: true }),
  };
}

/**
 * Adds the missing copies to every file set a game serves (or the games of `slug`), skipping sets already done unless
 * `force`. Safe while the service runs: copies are written beside the files, which never change.
 */
export async function compressGameFiles(
  ctx: AppContext,
  options: { slug?: string; force?: boolean } = {},
  progress: (set: CompressedSet) => void = () => {},
): Promise<CompressedSet[]> {
  const games = await findServedFileSets(ctx.db, options.slug);
  if (options.slug !== undefined && !games.length) throw notFound(`No game ${options.slug}`);
  const done: CompressedSet[] = [];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'gp-compress-'));
  try {
    for (const game of games) {
      for (const set of [game.files_dir, game.previous_files_dir]) {
        if (!set) continue;
        const prefix = `${slugPrefix(game.slug)}/${set}`;
        const entry: CompressedSet = {
          slug: game.slug,
          set,
          done_before: false,
          copies: 0,
          decoded: 0,
          unreadable: [],
        };
        if (!options.force && (await ctx.storage.head(`${prefix}/${COPIES_MARKER}`))) entry.done_before = true;
        else {
          const files = await storedFiles(ctx.storage, prefix, scratch);
          if (!files.names.length) continue; // a game row whose files are not in this store
          const result = await storeCopies(ctx.storage, prefix, files, { maxDecodedBytes: PUBLISH_LIMITS.bytes });
          Object.assign(entry, result);
          await ctx.storage.put(`${prefix}/${COPIES_MARKER}`, Buffer.from('1'));
        }
        done.push(entry);
        progress(entry);
      }
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return done;
}
