// Where avatars and game files live: one interface, with the files under data_dir (local) or an S3-compatible bucket (s3).
// Keys are `/`-separated paths built from checked names (games/<slug>/<set>/<file>, avatars/<file>); no caller passes user text raw.
import type { Readable } from 'node:stream';

export interface ObjectStat {
  size: number;
  /** a validator for the stored bytes, quoted as in an ETag header (local: weak, from size and mtime) */
  etag: string;
  lastModified: Date;
}

export interface ObjectRange {
  /** first byte, inclusive */
  start: number;
  /** last byte, inclusive */
  end: number;
}

export interface StoredObject extends ObjectStat {
  /** the bytes asked for (the whole object, or the range) */
  body: Readable;
}

/** What put stores: bytes in memory, or a local file copied in (the size is known, so it streams to S3 unbuffered). */
export type PutBody = Buffer | { file: string };

export interface ListedObject {
  key: string;
  size: number;
  /** the S3 ETag (quoted), or the local weak validator */
  etag: string;
}

export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** where the objects are, for logs and the CLI (never credentials) */
  readonly location: string;
  /** Fails with StorageError naming the problem (no bucket, credentials refused, unreachable) before anything is served. */
  check(): Promise<void>;
  put(key: string, body: PutBody, options?: { contentType?: string }): Promise<void>;
  /** null when there is no such object */
  get(key: string, range?: ObjectRange): Promise<StoredObject | null>;
  head(key: string): Promise<ObjectStat | null>;
  /** no error when the object is not there */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a `…/` folder prefix). */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix`, recursively; local dot-names (staging, temporary files) are left out. */
  list(prefix: string): AsyncIterable<ListedObject>;
  /** The names directly under the folder `prefix` (`games/x/` → the file sets of game x). */
  folders(prefix: string): Promise<string[]>;
  close(): void;
}

export class StorageError extends Error {}
