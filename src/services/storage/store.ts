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

/**
 * What put stores: bytes in memory, a local file copied in, or a stream of exactly `size` bytes (an upload's body). The
 * size is known in each case, so it streams to S3 unbuffered. A stream that ends early, or fails, stores nothing.
 */
export type PutBody = Buffer | { file: string } | { stream: Readable; size: number };

/** Thrown by put when a stream brings more or fewer bytes than its `size`. */
export class StreamSizeError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`the stream held ${actual} bytes, ${expected} were announced`);
  }
}

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
