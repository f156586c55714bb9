// The stored objects of a backup. An inventory is taken before the database snapshot and again after it, so that an
// object the snapshot points at is never lost to a delete that lands between the two (an avatar replaced, an old file
// set removed by a publish): files under data_dir are hard-linked into the backup's staging folder (a link keeps the
// bytes whatever the service deletes later, and costs no copy); a bucket is listed.
import { createWriteStream } from 'node:fs';
import { copyFile, link, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../storage/store.js';
import type { BackupObject } from './manifest.js';
import type { StoredReferences } from './references.js';

/**
 * The store's folders a backup covers. Avatars last: they change most often (one upload replaces another), so the
 * moment they are inventoried is the nearest to the snapshot that follows.
 */
const STORED_FOLDERS = ['games/', 'avatars/'];

interface Known {
  size: number;
  etag: string;
  /** the bytes are in the staging folder */
  staged: boolean;
}

export type Inventory = Map<string, Known>;

const ignorable = (error: unknown, ...codes: string[]) => codes.includes((error as NodeJS.ErrnoException).code ?? '');

/** Hard-links one file into the staging folder (a copy when they are on different file systems). */
async function stageFile(from: string, to: string): Promise<boolean> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await link(from, to);
  } catch (error) {
    if (ignorable(error, 'EEXIST')) return true;
    if (ignorable(error, 'ENOENT')) return false; // deleted since it was listed
    if (!ignorable(error, 'EXDEV', 'EPERM')) throw error;
    try {
      await copyFile(from, to);
    } catch (copyError) {
      if (ignorable(copyError, 'ENOENT')) return false;
      throw copyError;
    }
  }
  return true;
}

/** Every file under avatars/ and games/ of data_dir (dot-names left out, as the store does), staged by a link. */
export async function stageLocalObjects(root: string, staging: string, inventory: Inventory): Promise<void> {
  const walk = async (folder: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(path.join(root, folder), { withFileTypes: true });
    } catch (error) {
      if (ignorable(error, 'ENOENT', 'ENOTDIR')) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = `${folder}${entry.name}`;
      if (entry.isDirectory()) await walk(`${key}/`);
      else if (entry.isFile() && !inventory.has(key)) {
        const staged = path.join(staging, key);
        if (!(await stageFile(path.join(root, key), staged))) continue;
        const s = await stat(staged);
        inventory.set(key, {
          size: s.size,
          etag: `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`,
          staged: true,
        });
      }
    }
  };
  for (const folder of STORED_FOLDERS) await walk(folder);
}

/** Every object under avatars/ and games/ of a bucket, by listing (no bytes). */
export async function listStoreObjects(store: ObjectStore, inventory: Inventory): Promise<void> {
  for (const folder of STORED_FOLDERS)
    for await (const object of store.list(folder))
      if (!inventory.has(object.key))
        inventory.set(object.key, { size: object.size, etag: object.etag, staged: false });
}

/** Downloads an object into the staging folder; false when the store no longer has it. */
export async function downloadObject(store: ObjectStore, key: string, staging: string): Promise<boolean> {
  const object = await store.get(key);
  if (!object) return false;
  const file = path.join(staging, key);
  await mkdir(path.dirname(file), { recursive: true });
  await pipeline(object.body, createWriteStream(file));
  return true;
}

/** The objects the references name, from the inventory, and the references it cannot satisfy. */
export function resolveReferences(
  references: StoredReferences,
  inventory: Inventory,
): { objects: BackupObject[]; missing: string[] } {
  const objects = new Map<string, BackupObject>();
  const missing: string[] = [];
  const add = (key: string, known: Known) =>
    objects.set(key, { key, size: known.size, etag: known.etag, included: known.staged });
  for (const key of references.keys) {
    const known = inventory.get(key);
    if (known) add(key, known);
    else missing.push(key);
  }
  for (const prefix of references.prefixes) {
    let found = false;
    for (const [key, known] of inventory)
      if (key.startsWith(prefix)) {
        add(key, known);
        found = true;
      }
    if (!found) missing.push(prefix);
  }
  return { objects: [...objects.values()].sort((a, b) => (a.key < b.key ? -1 : 1)), missing: missing.sort() };
}

export interface RestoredObjects {
  /** written into the store from the archive */
  written: number;
  /** already in the store */
  present: number;
  /** neither in the archive nor in the store */
  missing: string[];
}

/**
 * Puts back every object of the backup that the store lacks (or holds with another size), from the archive; objects
 * the archive only lists are checked, and those the store lacks are reported.
 */
export async function restoreObjects(
  store: ObjectStore,
  objects: BackupObject[],
  extracted: string,
  contentTypeOf: (key: string) => string | undefined,
): Promise<RestoredObjects> {
  const result: RestoredObjects = { written: 0, present: 0, missing: [] };
  for (const object of objects) {
    const there = await store.head(object.key);
    if (there && there.size === object.size) result.present++;
    else if (object.included) {
      const contentType = contentTypeOf(object.key);
      await store.put(object.key, { file: path.join(extracted, object.key) }, contentType ? { contentType } : {});
      result.written++;
    } else result.missing.push(object.key);
  }
  return result;
}
