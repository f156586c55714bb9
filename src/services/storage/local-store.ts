// The store as files under data_dir: the layout of every deployment so far (games/<slug>/<set>/…, avatars/…).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Dirent, type Stats } from 'node:fs';
import { access, copyFile, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  StorageError,
  StreamSizeError,
  type ListedObject,
  type ObjectRange,
  type ObjectStat,
  type ObjectStore,
  type PutBody,
  type StoredObject,
} from './store.js';

/** send's validator (size and mtime), so URLs cached before the store existed still revalidate. */
const etagOf = (s: Stats) => `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`;
const statOf = (s: Stats): ObjectStat => ({ size: s.size, etag: etagOf(s), lastModified: s.mtime });

/** No such object: also a name longer than the file system allows (a sibling such as `<255-byte name>.br`). */
const missing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Writes a stream of exactly `size` bytes to `file`; more or fewer is a StreamSizeError (the caller removes the file). */
async function writeStream(stream: Readable, size: number, file: string): Promise<void> {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new StreamSizeError(size, seen) : null, chunk);
    },
  });
  await pipeline(stream, counter, createWriteStream(file));
  if (seen !== size) throw new StreamSizeError(size, seen);
}

export class LocalStore implements ObjectStore {
  readonly kind = 'local';
  readonly location: string;

  constructor(private readonly root: string) {
    this.location = root;
  }

  /** The file of a key; a key that would leave the root is refused (keys are built from checked names, so this is a bug). */
  private fileOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`storage key outside the store: ${key}`);
    return file;
  }

  async check(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root);
    } catch (error) {
      throw new StorageError(`data_dir ${this.root} cannot be used for files: ${(error as Error).message}`);
    }
  }

  async put(key: string, body: PutBody): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside, then renamed: a reader never sees half a file. A short name, so that a file whose name has
    // the 255 bytes a file system allows still has room for its temporary one.
    const temporary = path.join(path.dirname(file), `.${randomBytes(8).toString('hex')}.tmp`);
    try {
      if (Buffer.isBuffer(body)) await writeFile(temporary, body);
      else if ('file' in body) await copyFile(body.file, temporary);
      else await writeStream(body.stream, body.size, temporary);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  private async statFile(key: string): Promise<Stats | null> {
    try {
      const s = await stat(this.fileOf(key));
      return s.isFile() ? s : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<ObjectStat | null> {
    const s = await this.statFile(key);
    return s && statOf(s);
  }

  async get(key: string, range?: ObjectRange): Promise<StoredObject | null> {
    const s = await this.statFile(key);
    if (!s) return null;
    const body = createReadStream(this.fileOf(key), range ? { start: range.start, end: range.end } : {});
    return { ...statOf(s), body };
  }

  async delete(key: string): Promise<void> {
    await unlink(this.fileOf(key)).catch((error: unknown) => {
      if (!missing(error)) throw error;
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.fileOf(prefix), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    const walk = async function* (this: LocalStore, folder: string): AsyncGenerator<ListedObject> {
      let entries: Dirent[];
      try {
        entries = await readdir(this.fileOf(folder), { withFileTypes: true });
      } catch (error) {
        if (missing(error)) return;
        throw error;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const key = `${folder}${entry.name}`;
        if (entry.isDirectory()) yield* walk.call(this, `${key}/`);
        else if (entry.isFile()) {
          const s = await this.statFile(key);
          if (s) yield { key, size: s.size, etag: etagOf(s) };
        }
      }
    };
    yield* walk.call(this, prefix);
  }

  async folders(prefix: string): Promise<string[]> {
    try {
      const entries = await readdir(this.fileOf(prefix), { withFileTypes: true });
      return entries
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map((e) => e.name)
        .sort();
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  close(): void {}
}
