// The pictures link previews and home screens show, as PNG (most preview renderers ignore SVG and WebP): a game's
// preview (1200×630, from its cover), the site's share image, and the portal's icons (favicon, touch icon, manifest
// icons), all rendered with sharp. Game previews are rendered on their first request and kept in the store under
// previews/ (one per cover: a new cover gets a new one); the site's pictures are rendered once per process.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { slugPrefix } from '../games/files.js';
import { MEDIA_PREFIX } from '../games/listing-media.service.js';
import { THEME_COLOR } from './html.js';
import { listListedPageGames, type PageGame } from './portal.repository.js';

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;
export const BACKGROUND_COLOR = '#f6f7fb';
const PREVIEWS_PREFIX = 'previews/games';
const MAX_PIXELS = 40_000_000;

/** Which cover a preview is made from: changes when the cover does (a new upload or a release with another cover). */
export function previewVersion(game: Pick<PageGame, 'cover_key' | 'files_dir' | 'cover'>): string {
  const source = game.cover_key ? `media:${game.cover_key}` : `files:${game.files_dir}/${game.cover}`;
  return createHash('sha256').update(source).digest('base64url').slice(0, 16);
}

/** The absolute URL of a game's preview, versioned by its cover (a crawler's cache sees a new cover as a new picture). */
export function previewUrl(config: Pick<Config, 'public_url'>, game: PageGame): string {
  return `${config.public_url}/games/${encodeURIComponent(game.slug)}/preview.png?v=${previewVersion(game)}`;
}

export function siteShareUrl(config: Pick<Config, 'public_url'>): string {
  return `${config.public_url}/share.png`;
}

function coverKey(game: Pick<PageGame, 'slug' | 'cover_key' | 'files_dir' | 'cover'>): string {
  return game.cover_key
    ? `${MEDIA_PREFIX}/${game.cover_key}`
    : `${slugPrefix(game.slug)}/${game.files_dir}/${game.cover}`;
}

/** 1200×630 PNG filled by the picture (cut at the sides or top and bottom, centred). */
async function renderPreview(cover: Buffer): Promise<Buffer> {
  return sharp(cover, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
    .rotate()
    .resize(PREVIEW_WIDTH, PREVIEW_HEIGHT, { fit: 'cover', position: 'centre' })
    .flatten({ background: BACKGROUND_COLOR })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Renders in progress, by store key: two crawlers asking at once wait for one render. */
const rendering = new Map<string, Promise<Buffer | null>>();

/**
 * A game's preview PNG: from the store, else rendered from its cover and stored. Null when the cover cannot be read
 * (missing, or not a picture sharp decodes): the caller answers with the site's share image.
 */
export async function gamePreview(ctx: AppContext, game: PageGame): Promise<Buffer | null> {
  const key = `${PREVIEWS_PREFIX}/${game.slug}/${previewVersion(game)}.png`;
  const stored = await ctx.storage.get(key);
  if (stored) return buffer(stored.body);
  let pending = rendering.get(key);
  if (!pending) {
    pending = (async () => {
      const cover = await ctx.storage.get(coverKey(game));
      if (!cover) return null;
      let png: Buffer;
      try {
        png = await renderPreview(await buffer(cover.body));
      } catch (error) {
        ctx.log.warn({ err: error, slug: game.slug }, "a game's cover could not be rendered as its preview");
        return null;
      }
      await ctx.storage.put(key, png, { contentType: 'image/png' });
      return png;
    })().finally(() => rendering.delete(key));
    rendering.set(key, pending);
  }
  return pending;
}

/**
 * Renders (and stores) the previews of the listed games that are missing: `gameplatform games previews` runs it over the
 * catalogue, so that games published before previews existed have theirs before the first crawler asks.
 */
export async function renderMissingPreviews(ctx: AppContext): Promise<{ rendered: number; failed: string[] }> {
  const games = await listListedPageGames(ctx.db);
  let rendered = 0;
  const failed: string[] = [];
  for (const game of games) {
    if (await gamePreview(ctx, game))
      rendered++; // a stored one counts: it is there
    else failed.push(game.slug);
  }
  return { rendered, failed };
}

export interface SiteImages {
  /** 1200×630 share image of the site */
  share: Buffer;
  /** 180×180 touch icon (opaque, as iOS wants) */
  touch: Buffer;
  icon192: Buffer;
  icon512: Buffer;
  /** an ICO holding 16, 32 and 48 px PNGs */
  favicon: Buffer;
}

/** An ICO file whose images are PNGs (every browser since 2010 reads them). */
export function icoOf(pngs: Array<{ size: number; data: Buffer }>): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({ size, data }, i) => {
    const at = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, at);
    header.writeUInt8(size >= 256 ? 0 : size, at + 1);
    header.writeUInt8(0, at + 2); // no palette
    header.writeUInt8(0, at + 3);
    header.writeUInt16LE(1, at + 4); // colour planes
    header.writeUInt16LE(32, at + 6); // bits per pixel
    header.writeUInt32LE(data.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...pngs.map((p) => p.data)]);
}

/** The site's share image: the icon and the name on the portal's background. */
function shareSvg(icon: string): string {
  const inner = icon.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PREVIEW_WIDTH}" height="${PREVIEW_HEIGHT}" viewBox="0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}">
<rect width="100%" height="100%" fill="${BACKGROUND_COLOR}"/>
<g transform="translate(120 187) scale(4)">${inner}</g>
<text x="440" y="300" font-family="DejaVu Sans, Arial, sans-serif" font-size="84" font-weight="700" fill="#17192b">Game Platform</text>
<text x="440" y="380" font-family="DejaVu Sans, Arial, sans-serif" font-size="40" fill="#565a75">Play HTML5 games in your browser</text>
</svg>`;
}

let siteImages: Promise<SiteImages> | null = null;

/** The site's pictures, rendered from the built icon (portal/icon.svg) on first use and kept for the process. */
export function loadSiteImages(assetsRoot: string): Promise<SiteImages> {
  siteImages ??= (async () => {
    const icon = readFileSync(path.join(assetsRoot, 'assets', 'icon.svg'));
    const square = (size: number, background?: string) => {
      const image = sharp(icon, { density: Math.ceil((72 * size) / 64) }).resize(size, size);
      return (background ? image.flatten({ background }) : image).png({ compressionLevel: 9 }).toBuffer();
    };
    const [share, touch, icon192, icon512, i16, i32, i48] = await Promise.all([
      sharp(Buffer.from(shareSvg(icon.toString('utf8'))))
        .png({ compressionLevel: 9 })
        .toBuffer(),
      square(180, THEME_COLOR),
      square(192),
      square(512),
      square(16),
      square(32),
      square(48),
    ]);
    return {
      share,
      touch,
      icon192,
      icon512,
      favicon: icoOf([
        { size: 16, data: i16 },
        { size: 32, data: i32 },
        { size: 48, data: i48 },
      ]),
    };
  })();
  siteImages.catch(() => (siteImages = null));
  return siteImages;
}
