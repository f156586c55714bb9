// Deploying: the zip uploaded in parts (each retried on a network failure or a busy service; an upload cut short is
// resumed with --resume), then completed into a numbered build, and released when asked.
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { type Api, ApiError, isTransient } from './api.js';
import { type Archive, UsageError } from './archive.js';

export interface Build {
  number: number;
  version: string;
  files: number;
  bytes: number;
  live: boolean;
  preview_url: string;
  uploaded_by: string | null;
  created_at: string;
  released_at: string | null;
  state: string;
}

interface Upload {
  id: string;
  size: number;
  parts: Array<{ part: number; size: number }>;
  max_part_bytes: number;
}

export interface DeployOptions {
  game?: string;
  release?: boolean;
  /** bytes per part */
  partSize: number;
  /** an upload id to go on with (the same zip) */
  resume?: string;
  /** bytes stored so far, of the total */
  onProgress(sent: number, total: number): void;
  /** waits between attempts (tests pass a short one) */
  retryDelayMs?: number;
}

export interface DeployResult {
  game: string;
  upload: string;
  build: Build;
  released: boolean;
}

/** Raised when the upload stopped after it began: it can be resumed with the upload's id. */
export class UploadStopped extends Error {
  constructor(
    readonly upload: string,
    readonly reason: unknown,
  ) {
    super((reason as Error).message);
  }
}

const ATTEMPTS = 5;

async function withRetries<T>(run: () => Promise<T>, delayMs: number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransient(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * 2 ** (attempt - 1)));
    }
  }
}

/** One part's bytes from the file, counted as they leave. */
function partBody(file: string, start: number, length: number, onBytes: (n: number) => void) {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
  const stream = createReadStream(file, { start, end: start + length - 1 }).pipe(counter);
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}

async function openUpload(api: Api, game: string, archive: Archive, resume: string | undefined): Promise<Upload> {
  if (!resume) return api.call<Upload>('POST', `/studio/games/${game}/uploads`, { body: { size: archive.size } });
  const upload = await api.call<Upload>('GET', `/studio/games/${game}/uploads/${encodeURIComponent(resume)}`);
  if (upload.size !== archive.size)
    throw new UsageError(
      `upload ${resume} is of a zip of ${upload.size} bytes, this one has ${archive.size}: start a new one`,
    );
  return upload;
}

async function sendParts(
  api: Api,
  game: string,
  archive: Archive,
  upload: Upload,
  options: DeployOptions,
): Promise<void> {
  const partSize = Math.min(options.partSize, upload.max_part_bytes);
  const count = Math.max(1, Math.ceil(archive.size / partSize));
  const have = new Map(upload.parts.map((p) => [p.part, p.size]));
  let stored = 0;
  options.onProgress(0, archive.size);
  for (let part = 1; part <= count; part++) {
    const start = (part - 1) * partSize;
    const length = Math.min(partSize, archive.size - start);
    if (have.get(part) === length) {
      stored += length;
      options.onProgress(stored, archive.size);
      continue;
    }
    await withRetries(async () => {
      let sent = 0;
      const stream = partBody(archive.file, start, length, (n) => {
        sent += n;
        options.onProgress(stored + sent, archive.size);
      });
      await api.call('PUT', `/studio/games/${game}/uploads/${upload.id}/parts/${part}`, { bytes: { stream, length } });
    }, options.retryDelayMs ?? 1000);
    stored += length;
    options.onProgress(stored, archive.size);
  }
}

/** Uploads the archive to the game (game.json's slug unless told), completes it into a build, and releases it if asked. */
export async function deploy(api: Api, archive: Archive, options: DeployOptions): Promise<DeployResult> {
  const game = options.game ?? archive.slug;
  if (!game) throw new UsageError('game.json names no slug: say which game with --game <slug>');
  const upload = await openUpload(api, game, archive, options.resume);
  let build: Build;
  try {
    await sendParts(api, game, archive, upload, options);
    build = await withRetries(
      () => api.call<Build>('POST', `/studio/games/${game}/uploads/${upload.id}/complete`),
      options.retryDelayMs ?? 1000,
    );
  } catch (error) {
    // A refusal of the zip itself ends the upload on the platform; anything else leaves it to resume.
    if (error instanceof ApiError && (error.status === 422 || error.status === 404)) throw error;
    throw new UploadStopped(upload.id, error);
  }
  if (!options.release) return { game, upload: upload.id, build, released: false };
  const released = await api.call<{ build: Build }>('POST', `/studio/games/${game}/builds/${build.number}/release`);
  return { game, upload: upload.id, build: released.build, released: true };
}
