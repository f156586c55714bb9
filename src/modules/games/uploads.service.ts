// Uploads in parts, resumable from any instance: each part is streamed into the store as uploads/<id>/<part> (bounded
// memory, any order, sent again to replace it); completing joins them into the zip a build is made of.
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { StreamSizeError } from '../../services/storage/store.js';
import { formatTimestamp } from '../../time.js';
import type { BuildView, GameRef, Uploader } from './build-views.js';
import { withStaging } from './build-staging.js';
import { createBuild } from './builds.service.js';
import {
  claimUpload,
  deleteUpload,
  findExpiredUploads,
  findUpload,
  insertUpload,
  knownUploads,
  reopenUpload,
  type UploadRow,
} from './uploads.repository.js';

/** The store's folder of parts being uploaded. */
export const UPLOADS_PREFIX = 'uploads';
/** The largest part: each part is one request, which must arrive within http.request_timeout_seconds. */
export const MAX_PART_BYTES = 64 * 1024 * 1024;
/** Parts are numbered 1 to this. */
export const MAX_PARTS = 10_000;
export const UPLOAD_ID = /^[a-f0-9]{24}$/;

export interface UploadView {
  id: string;
  /** the zip's size in bytes, as announced */
  size: number;
  /** the parts stored so far, by number, with their sizes */
  parts: Array<{ part: number; size: number }>;
  /** bytes stored so far */
  received: number;
  max_part_bytes: number;
  expires_at: string;
}

const partKey = (id: string, part: number) => `${UPLOADS_PREFIX}/${id}/${String(part).padStart(5, '0')}`;

async function storedParts(ctx: AppContext, id: string): Promise<Array<{ part: number; size: number; key: string }>> {
  const parts: Array<{ part: number; size: number; key: string }> = [];
  for await (const object of ctx.storage.list(`${UPLOADS_PREFIX}/${id}/`)) {
    const part = Number(object.key.slice(object.key.lastIndexOf('/') + 1));
    if (Number.isInteger(part) && part >= 1) parts.push({ part, size: object.size, key: object.key });
  }
  return parts.sort((a, b) => a.part - b.part);
}

async function viewOf(ctx: AppContext, row: UploadRow): Promise<UploadView> {
  const parts = (await storedParts(ctx, row.id)).map(({ part, size }) => ({ part, size }));
  return {
    id: row.id,
    size: Number(row.size),
    parts,
    received: parts.reduce((sum, p) => sum + p.size, 0),
    max_part_bytes: MAX_PART_BYTES,
    expires_at: formatTimestamp(Number(row.expires_at)),
  };
}

export async function startUpload(
  ctx: AppContext,
  game: GameRef,
  size: number,
  uploader: Uploader,
): Promise<UploadView> {
  const max = ctx.config.builds.max_bytes;
  if (size > max)
    throw new AppError('payload_too_large', `A build's zip may hold at most ${max} bytes (setting builds.max_bytes)`);
  const now = ctx.clock.now();
  const row = {
    id: randomBytes(12).toString('hex'),
    game_id: game.id,
    player_id: uploader.playerId,
    key_id: uploader.keyId,
    size,
    state: 'open',
    created_at: now,
    expires_at: now + ctx.config.builds.upload_ttl_hours * 3_600_000,
  };
  await insertUpload(ctx.db, row);
  return viewOf(ctx, row);
}

async function openUpload(ctx: AppContext, game: GameRef, id: string): Promise<UploadRow> {
  const row = UPLOAD_ID.test(id) ? await findUpload(ctx.db, game.id, id, ctx.clock.now()) : undefined;
  if (!row) throw notFound('No such upload (it was completed, cancelled or has expired)');
  return row;
}

export async function getUpload(ctx: AppContext, game: GameRef, id: string): Promise<UploadView> {
  return viewOf(ctx, await openUpload(ctx, game, id));
}

/** Stores one part from the request body (exactly `length` bytes), replacing the part of that number if there is one. */
export async function putPart(
  ctx: AppContext,
  game: GameRef,
  id: string,
  part: number,
  body: Readable,
  length: number,
): Promise<UploadView> {
  const row = await openUpload(ctx, game, id);
  if (row.state !== 'open') throw new AppError('upload_busy', 'This upload is being completed');
  if (length > Math.min(MAX_PART_BYTES, Number(row.size)))
    throw new AppError(
      'payload_too_large',
      `A part may hold at most ${Math.min(MAX_PART_BYTES, Number(row.size))} bytes`,
    );
  try {
    await ctx.storage.put(
      partKey(id, part),
      { stream: body, size: length },
      { contentType: 'application/octet-stream' },
    );
  } catch (error) {
    if (error instanceof StreamSizeError)
      throw new AppError(
        'bad_request',
        `The part's body held ${error.actual} bytes, Content-Length said ${error.expected}`,
      );
    throw error;
  }
  return viewOf(ctx, row);
}

export async function cancelUpload(ctx: AppContext, game: GameRef, id: string): Promise<void> {
  const row = await openUpload(ctx, game, id);
  await deleteUpload(ctx.db, row.id);
  await ctx.storage.deletePrefix(`${UPLOADS_PREFIX}/${row.id}/`);
}

/** The parts, checked to run 1..n and to add up to the announced size. */
async function completeParts(ctx: AppContext, row: UploadRow) {
  const parts = await storedParts(ctx, row.id);
  const received = parts.reduce((sum, p) => sum + p.size, 0);
  const gap = parts.findIndex((p, i) => p.part !== i + 1);
  if (gap !== -1 || received !== Number(row.size)) {
    throw new AppError(
      'upload_incomplete',
      gap !== -1
        ? `Part ${gap + 1} is missing: parts are numbered from 1 without a gap`
        : `${received} of ${row.size} bytes are uploaded`,
      { received, size: Number(row.size), parts: parts.map(({ part, size }) => ({ part, size })) },
    );
  }
  return parts;
}

async function joinParts(ctx: AppContext, parts: Array<{ key: string }>, file: string): Promise<void> {
  const out = await open(file, 'w');
  try {
    for (const part of parts) {
      const object = await ctx.storage.get(part.key);
      if (!object) throw new AppError('upload_incomplete', 'A part vanished while the upload was completed');
      for await (const chunk of object.body) await out.write(chunk as Buffer);
    }
  } finally {
    await out.close();
  }
}

/** Refused (a 4xx): the upload can never become a build, so it goes with its parts; anything else may be retried. */
async function finish(ctx: AppContext, row: UploadRow, error: unknown): Promise<void> {
  const refused = error instanceof AppError && error.status < 500 && error.code !== 'upload_incomplete';
  if (refused || error === undefined) {
    await deleteUpload(ctx.db, row.id);
    await ctx.storage
      .deletePrefix(`${UPLOADS_PREFIX}/${row.id}/`)
      .catch((cleanup: unknown) => ctx.log.warn({ err: cleanup, upload: row.id }, 'upload parts could not be removed'));
  } else await reopenUpload(ctx.db, row.id);
}

/** Joins the parts and makes the build; the upload is gone afterwards unless the failure was the service's own. */
export async function completeUpload(
  ctx: AppContext,
  game: GameRef,
  id: string,
  uploader: Uploader,
): Promise<BuildView> {
  const row = await openUpload(ctx, game, id);
  if (!(await claimUpload(ctx.db, row.id))) throw new AppError('upload_busy', 'This upload is being completed already');
  let failure: unknown;
  try {
    const parts = await completeParts(ctx, row);
    return await withStaging(ctx, async (dir) => {
      const zip = path.join(dir, 'build.zip');
      await joinParts(ctx, parts, zip);
      return createBuild(ctx, game, zip, path.join(dir, 'files'), uploader);
    });
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await finish(ctx, row, failure);
  }
}

/**
 * Deletes expired uploads with their parts, and parts whose upload is gone (a part stored while its upload was being
 * completed or cancelled). Safe to run from every process at once: each deletion is idempotent.
 */
export async function sweepUploads(ctx: AppContext): Promise<number> {
  const expired = await findExpiredUploads(ctx.db, ctx.clock.now(), 100);
  for (const id of expired) {
    await deleteUpload(ctx.db, id);
    await ctx.storage.deletePrefix(`${UPLOADS_PREFIX}/${id}/`);
  }
  const folders = (await ctx.storage.folders(`${UPLOADS_PREFIX}/`)).filter((f) => UPLOAD_ID.test(f));
  const known = await knownUploads(ctx.db, folders);
  const orphans = folders.filter((f) => !known.has(f));
  for (const id of orphans) await ctx.storage.deletePrefix(`${UPLOADS_PREFIX}/${id}/`);
  return expired.length + orphans.length;
}
