// A listing's pictures uploaded through the API: a cover and up to MAX_SCREENSHOTS screenshots, sniffed by content,
// decoded under a pixel limit, stripped of metadata and stored as WebP under media/games/<id>/ with a new name each time.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { sniffImageFormat } from '../accounts/avatar.service.js';
import { gameAssetUrl } from './game-origin.js';
import { findGameBySlug, lockGameRow, type StudioGameRow, updateGame } from './studio-games.repository.js';

export const MEDIA_PREFIX = 'media';
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;
export const MAX_SCREENSHOTS = 8;
const MAX_PIXELS = 40_000_000;
/** A stored picture's key under media/: games/<game id>/<random>.webp. */
export const MEDIA_FILE = /^games\/\d+\/[A-Za-z0-9_-]{16}\.webp$/;

export type MediaKind = 'cover' | 'screenshot';
const LONGEST_SIDE: Record<MediaKind, number> = { cover: 1280, screenshot: 1920 };

const mediaKey = (file: string) => `${MEDIA_PREFIX}/${file}`;

/** A stored picture's URL: at assets_url when set (a CDN or the bucket), else served by the service under /media/. */
export function mediaUrl(config: Pick<Config, 'assets_url' | 'public_url'>, file: string): string {
  return `${config.assets_url || config.public_url}/${mediaKey(file)}`;
}

/** The cover shown for a game: the uploaded one, else the live build's cover file (null before the first release). */
export function coverUrl(ctx: AppContext, row: Pick<StudioGameRow, 'slug' | 'files_dir' | 'cover' | 'cover_key'>) {
  if (row.cover_key) return mediaUrl(ctx.config, row.cover_key);
  return row.files_dir ? gameAssetUrl(ctx.config, row.slug, row.files_dir, row.cover) : null;
}

export function listingMediaUrls(ctx: AppContext, row: StudioGameRow) {
  return {
    cover_url: coverUrl(ctx, row),
    screenshots: (JSON.parse(row.screenshots) as string[]).map((file) => mediaUrl(ctx.config, file)),
  };
}

/** Upright, fitted inside the kind's longest side (never enlarged), WebP without metadata. */
async function processPicture(input: Buffer, kind: MediaKind): Promise<Buffer> {
  const format = sniffImageFormat(input);
  if (!format) throw new AppError('unsupported_media_type', 'The picture must be a JPG, PNG, GIF or WebP image');
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    if (meta.format !== format || !meta.width || !meta.height) throw new Error('unreadable');
    if (meta.width * (meta.pageHeight ?? meta.height) > MAX_PIXELS)
      throw validationFailed({ [kind]: `is larger than ${MAX_PIXELS.toLocaleString('en')} pixels` });
    const side = LONGEST_SIDE[kind];
    return await sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw validationFailed({ [kind]: 'cannot be read as an image (damaged or incomplete)' });
  }
}

async function store(ctx: AppContext, gameId: number, input: Buffer, kind: MediaKind): Promise<string> {
  const picture = await processPicture(input, kind);
  const file = `games/${gameId}/${randomBytes(12).toString('base64url')}.webp`;
  await ctx.storage.put(mediaKey(file), picture, { contentType: 'image/webp' });
  return file;
}

async function drop(ctx: AppContext, files: string[]): Promise<void> {
  for (const file of files)
    await ctx.storage
      .delete(mediaKey(file))
      .catch((error: unknown) => ctx.log.warn({ err: error, file }, 'an old listing picture could not be removed'));
}

/**
 * Changes the game's pictures in a transaction with its row locked (two uploads at once both count), stores `added`
 * first and deletes what the change dropped afterwards; a failed change deletes `added` again.
 */
async function change(
  ctx: AppContext,
  slug: string,
  edit: (game: StudioGameRow) => { cover_key?: string | null; screenshots?: string[]; dropped: string[] },
  added: string | null,
): Promise<void> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  let dropped: string[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const locked = (await lockGameRow(trx, game.id))!;
      const result = edit(locked);
      dropped = result.dropped;
      await updateGame(trx, game.id, {
        ...(result.cover_key === undefined ? {} : { cover_key: result.cover_key }),
        ...(result.screenshots === undefined ? {} : { screenshots: JSON.stringify(result.screenshots) }),
        updated_at: ctx.clock.now(),
      });
    });
  } catch (error) {
    if (added) await drop(ctx, [added]);
    throw error;
  }
  await drop(ctx, dropped);
}

async function gameId(ctx: AppContext, slug: string): Promise<number> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  return game.id;
}

/** Sets (or with null clears) the uploaded cover; the picture it replaces is deleted. */
export async function setCover(ctx: AppContext, slug: string, input: Buffer | null): Promise<void> {
  const file = input ? await store(ctx, await gameId(ctx, slug), input, 'cover') : null;
  await change(ctx, slug, (game) => ({ cover_key: file, dropped: game.cover_key ? [game.cover_key] : [] }), file);
}

/** Adds a screenshot at the end; at most MAX_SCREENSHOTS. */
export async function addScreenshot(ctx: AppContext, slug: string, input: Buffer): Promise<void> {
  const file = await store(ctx, await gameId(ctx, slug), input, 'screenshot');
  await change(
    ctx,
    slug,
    (game) => {
      const shots = JSON.parse(game.screenshots) as string[];
      if (shots.length >= MAX_SCREENSHOTS)
        throw validationFailed({
          screenshot: `a listing holds at most ${MAX_SCREENSHOTS} screenshots; remove one first`,
        });
      return { screenshots: [...shots, file], dropped: [] };
    },
    file,
  );
}

/** Removes the screenshot at `position` (1 = the first). */
export async function removeScreenshot(ctx: AppContext, slug: string, position: number): Promise<void> {
  await change(
    ctx,
    slug,
    (game) => {
      const shots = JSON.parse(game.screenshots) as string[];
      if (position < 1 || position > shots.length) throw notFound(`No screenshot ${position}`);
      const [removed] = shots.splice(position - 1, 1);
      return { screenshots: shots, dropped: [removed!] };
    },
    null,
  );
}

/** The stored picture behind a /media/ URL, or null. */
export function mediaObjectKey(file: string): string | null {
  return MEDIA_FILE.test(file) ? mediaKey(file) : null;
}
