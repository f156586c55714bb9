// Avatar uploads: type from the content, a pixel limit against decompression bombs, metadata stripped, centre crop to 256×256.
import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import type { AppContext } from '../../context.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { avatarUrl } from './avatar-url.js';
import { requireAccount } from './account-only.js';
import { lockPlayer, updatePlayer } from './players.repository.js';

/** 2 MiB: 2,097,152 bytes are accepted, one more is 413. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
/** Decoded size limit: a small file can claim a huge canvas (a "decompression bomb"); 25 megapixels is plenty for a photo. */
export const AVATAR_MAX_PIXELS = 25_000_000;
export const AVATAR_SIZE = 256;

type AvatarFormat = 'jpeg' | 'png' | 'gif' | 'webp';

/** The format named by the file's first bytes (never its name or declared type); null for anything else. */
export function sniffImageFormat(data: Buffer): AvatarFormat | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (data.length >= 6 && ['GIF87a', 'GIF89a'].includes(data.subarray(0, 6).toString('latin1'))) return 'gif';
  if (
    data.length >= 12 &&
    data.subarray(0, 4).toString('latin1') === 'RIFF' &&
    data.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

const unsupported = () => new AppError('unsupported_media_type', 'The avatar must be a JPG, PNG, GIF or WebP image');
const unreadable = () => validationFailed({ avatar: 'cannot be read as an image (damaged or incomplete)' });

/**
 * The stored picture: the first frame, turned upright by its EXIF orientation, centre-cropped to 256×256 and written
 * as WebP without any metadata (sharp keeps none unless asked). Decoding runs on libvips threads, off the event loop.
 */
export async function processAvatar(input: Buffer): Promise<Buffer> {
  const format = sniffImageFormat(input);
  if (!format) throw unsupported();
  const options = { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'error' as const };
  let meta: Metadata;
  try {
    // Reads the header only (no pixels are decoded), so the size can be checked before anything is.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (meta.format !== format) throw unsupported();
  if (!meta.width || !meta.height) throw unreadable();
  if (meta.width * (meta.pageHeight ?? meta.height) > AVATAR_MAX_PIXELS) {
    throw validationFailed({ avatar: `is larger than ${AVATAR_MAX_PIXELS.toLocaleString('en')} pixels` });
  }
  try {
    return await sharp(input, options)
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw unreadable();
  }
}

/** The store's folder of uploaded avatars. */
export const AVATARS_PREFIX = 'avatars';

/** An uploaded avatar's file name (`<player id>-<random>.webp`): anything else under /avatars/ is not one. */
export const AVATAR_FILE = /^\d+-[A-Za-z0-9_-]{12}\.webp$/;

export const avatarKey = (file: string) => `${AVATARS_PREFIX}/${file}`;

async function removeFile(ctx: AppContext, key: string | null): Promise<void> {
  if (!key) return;
  await ctx.storage
    .delete(avatarKey(key))
    .catch((error: unknown) => ctx.log.warn({ err: error, key }, 'old avatar file could not be removed'));
}

/** Points the player at `key` (or at the initials avatar for null) and removes the file it replaces. */
async function swapAvatar(ctx: AppContext, playerId: number, key: string | null) {
  const { previous, player } = await ctx.db.transaction().execute(async (trx) => {
    const current = await lockPlayer(trx, playerId);
    if (!current) throw new AppError('unauthenticated', 'The account no longer exists');
    const updated = await updatePlayer(trx, playerId, { avatar_key: key, updated_at: ctx.clock.now() });
    return { previous: current.avatar_key, player: updated! };
  });
  if (previous !== key) await removeFile(ctx, previous);
  return { avatar_url: avatarUrl(ctx.config, player) };
}

/** Stores the processed picture under a new name each time, so a cached URL never shows a stale picture. */
export async function setAvatar(ctx: AppContext, playerId: number, input: Buffer) {
  await requireAccount(ctx, playerId, 'Guests have no avatar');
  const picture = await processAvatar(input);
  const key = `${playerId}-${randomBytes(9).toString('base64url')}.webp`;
  // Stored before the player points at it: every instance can serve it the moment the answer names it.
  await ctx.storage.put(avatarKey(key), picture, { contentType: 'image/webp' });
  try {
    return await swapAvatar(ctx, playerId, key);
  } catch (error) {
    await removeFile(ctx, key);
    throw error;
  }
}

export async function removeAvatar(ctx: AppContext, playerId: number) {
  await requireAccount(ctx, playerId, 'Guests have no avatar');
  return swapAvatar(ctx, playerId, null);
}
