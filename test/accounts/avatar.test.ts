// POST/DELETE /v1/me/avatar with real images made by sharp: content sniffing, size and pixel limits, crop, metadata, serving.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { multipartBody, type FilePart } from '../helpers/multipart.js';

const MiB = 1024 * 1024;
const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** Three 100×100 blocks side by side: red, green, blue. */
async function stripes(): Promise<Buffer> {
  const block = (r: number, g: number, b: number) => Buffer.alloc(100 * 100 * 3, Buffer.from([r, g, b]));
  const rows: Buffer[] = [];
  const [red, green, blue] = [block(255, 0, 0), block(0, 255, 0), block(0, 0, 255)];
  for (let y = 0; y < 100; y++)
    rows.push(
      red.subarray(y * 300, y * 300 + 300),
      green.subarray(y * 300, y * 300 + 300),
      blue.subarray(y * 300, y * 300 + 300),
    );
  return sharp(Buffer.concat(rows), { raw: { width: 300, height: 100, channels: 3 } })
    .png()
    .toBuffer();
}

async function pixel(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

const near = (actual: number[], expected: number[]) => actual.every((v, i) => Math.abs(v - expected[i]!) < 40);

const images: Record<string, Buffer> = {};
beforeAll(async () => {
  images.jpeg = await solid(600, 400, '#3366cc')
    .withExif({ IFD0: { Copyright: 'Secret Camera Co', ImageDescription: 'home address' } })
    .jpeg()
    .toBuffer();
  images.png = await solid(120, 80, '#ff8800').png().toBuffer();
  images.gif = await solid(64, 64, '#00aa00').gif().toBuffer();
  images.webp = await solid(300, 300, '#aa00aa').webp().toBuffer();
  images.stripes = await stripes();
  // 400×200, left half red, right half blue, stored with EXIF orientation 6 (rotate 90° clockwise to view)
  const halves = Buffer.concat(
    Array.from({ length: 200 }, () =>
      Buffer.concat([Buffer.alloc(200 * 3, Buffer.from([255, 0, 0])), Buffer.alloc(200 * 3, Buffer.from([0, 0, 255]))]),
    ),
  );
  images.rotated = await sharp(halves, { raw: { width: 400, height: 200, channels: 3 } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  // 6000×6000 = 36 megapixels in a small file
  images.bomb = await solid(6000, 6000, '#ffffff').png({ compressionLevel: 9 }).toBuffer();
  // random pixels do not compress: well over 2 MB
  images.noise = await sharp(
    Buffer.from(Array.from({ length: 1100 * 1100 * 3 }, () => Math.floor(Math.random() * 256))),
    { raw: { width: 1100, height: 1100, channels: 3 } },
  )
    .png({ compressionLevel: 0 })
    .toBuffer();
  images.svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
  );
});

eachDialect('accounts: avatar', (h) => {
  const file = (data: Buffer, filename: string, contentType: string, field = 'avatar'): FilePart => ({
    field,
    filename,
    contentType,
    data,
  });
  const upload = (token: string, part: FilePart | FilePart[], headers: Record<string, string> = {}) => {
    const { body, contentType } = multipartBody(Array.isArray(part) ? part : [part]);
    return h.http.post('/v1/me/avatar', { token, body, contentType, headers });
  };
  const served = async (url: string) => h.http.get(new URL(url).pathname);
  const stored = () =>
    existsSync(path.join(h.dataDir, 'avatars')) ? readdirSync(path.join(h.dataDir, 'avatars')) : [];

  it('stores a JPEG as a 256×256 WebP without metadata and serves it for good', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx);
    const res = await upload(token, file(images.jpeg!, 'me.jpg', 'image/jpeg'));
    expect(res.status).toBe(200);
    expect(res.body.data.avatar_url).toMatch(
      new RegExp(`^http://localhost:8080/avatars/${player.id}-[A-Za-z0-9_-]+\\.webp$`),
    );
    expect((await h.http.get('/v1/me', { token })).body.data.player.avatar_url).toBe(res.body.data.avatar_url);

    const picture = await served(res.body.data.avatar_url);
    expect(picture.status).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');
    expect(picture.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const raw = await h.app.inject({ method: 'GET', url: new URL(res.body.data.avatar_url).pathname });
    const meta = await sharp(raw.rawPayload).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'webp',
      width: 256,
      height: 256,
    });
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(raw.rawPayload.includes(Buffer.from('Secret Camera Co'))).toBe(false);
  });

  it('crops the centre square', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await upload(token, file(images.stripes!, 'stripes.png', 'image/png'));
    expect(res.status).toBe(200);
    const raw = (await h.app.inject({ method: 'GET', url: new URL(res.body.data.avatar_url).pathname })).rawPayload;
    for (const [x, y] of [
      [128, 128],
      [4, 4],
      [251, 4],
      [4, 251],
      [251, 251],
    ] as const) {
      expect(near(await pixel(raw, x, y), [0, 255, 0])).toBe(true);
    }
  });

  it('turns a photo upright by its EXIF orientation before cropping', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await upload(token, file(images.rotated!, 'phone.jpg', 'image/jpeg'));
    const raw = (await h.app.inject({ method: 'GET', url: new URL(res.body.data.avatar_url).pathname })).rawPayload;
    expect(near(await pixel(raw, 128, 20), [255, 0, 0])).toBe(true);
    expect(near(await pixel(raw, 128, 235), [0, 0, 255])).toBe(true);
  });

  it.each([
    ['PNG', 'png', 'a.png', 'image/png'],
    ['GIF', 'gif', 'a.gif', 'image/gif'],
    ['WebP', 'webp', 'a.webp', 'image/webp'],
    ['PNG named .jpg', 'png', 'holiday.jpg', 'image/jpeg'],
    ['JPEG sent as application/octet-stream', 'jpeg', 'blob', 'application/octet-stream'],
  ])('accepts a %s by its content', async (_what, key, name, type) => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await upload(token, file(images[key]!, name, type));
    expect(res.status).toBe(200);
    expect(res.body.data.avatar_url).toMatch(/\.webp$/);
  });

  it.each([
    ['a text file named .png', () => Buffer.from('just some words, not a picture\n'), 'notes.png', 'image/png'],
    ['an SVG', () => images.svg!, 'logo.svg', 'image/svg+xml'],
    ['an SVG named .png', () => images.svg!, 'logo.png', 'image/png'],
    ['a PDF', () => Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'doc.pdf', 'application/pdf'],
    ['an empty file', () => Buffer.alloc(0), 'empty.jpg', 'image/jpeg'],
  ])('refuses %s with 415 unsupported_media_type', async (_what, data, name, type) => {
    const { token } = await createPlayerWithToken(h.ctx);
    const before = stored().length;
    const res = await upload(token, file(data(), name, type));
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    expect(stored().length).toBe(before);
  });

  it('refuses a file over 2 MB with 413 payload_too_large, at 2,097,152 bytes exactly it reads the content', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    expect(images.noise!.length).toBeGreaterThan(2 * MiB);
    const big = await upload(token, file(images.noise!, 'noise.png', 'image/png'));
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('payload_too_large');
    const overByOne = await upload(token, file(Buffer.alloc(2 * MiB + 1, 'a'), 'a.png', 'image/png'));
    expect(overByOne.status).toBe(413);
    const exact = await upload(token, file(Buffer.alloc(2 * MiB, 'a'), 'a.png', 'image/png'));
    expect(exact.status).toBe(415);
  });

  it('refuses a decompression bomb (36 megapixels in a small PNG) with 422 and stores nothing', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    expect(images.bomb!.length).toBeLessThan(2 * MiB);
    const before = stored().length;
    const res = await upload(token, file(images.bomb!, 'bomb.png', 'image/png'));
    expect(res.status).toBe(422);
    expect(res.body.error.fields.avatar).toMatch(/25,000,000 pixels/);
    expect(stored().length).toBe(before);
  });

  it('refuses a damaged image with 422', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const res = await upload(token, file(images.png!.subarray(0, 60), 'cut.png', 'image/png'));
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toHaveProperty('avatar');
  });

  it('needs the field "avatar" and a multipart body', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const wrongField = await upload(token, file(images.png!, 'a.png', 'image/png', 'picture'));
    expect(wrongField.status).toBe(422);
    expect(wrongField.body.error.fields).toHaveProperty('avatar');
    const noFile = multipartBody([], { avatar: 'not a file' });
    expect(
      (await h.http.post('/v1/me/avatar', { token, body: noFile.body, contentType: noFile.contentType })).status,
    ).toBe(422);
    const json = await h.http.post('/v1/me/avatar', { token, body: { avatar: 'data:image/png;base64,AAAA' } });
    expect(json.status).toBe(415);
    expect(json.body.error.message).toMatch(/multipart/);
    const raw = await h.http.post('/v1/me/avatar', { token, body: images.png!, contentType: 'image/png' });
    expect(raw.status).toBe(415);
    expect((await h.http.post('/v1/me/avatar', { token })).status).toBe(415);
  });

  it('keeps multipart away from JSON routes: they still answer 415', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const { body, contentType } = multipartBody([], { bio: 'sneaky' });
    const res = await h.http.patch('/v1/me', { token, body, contentType });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
  });

  it('answers without a credential 401, a developer key 403, a cookie without the header 403, a foreign Origin 403', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const part = file(images.png!, 'a.png', 'image/png');
    expect((await upload('', part)).status).toBe(401);
    const game = await createGame(h.ctx);
    const { key } = await createKey(h.ctx, game.id, ['players:read']);
    expect((await upload(key, part)).status).toBe(403);
    const { body, contentType } = multipartBody([part]);
    const csrf = await h.http.post('/v1/me/avatar', {
      body,
      contentType,
      cookies: { gp_session: h.app.signCookie(token) },
    });
    expect(csrf.status).toBe(403);
    expect(csrf.body.error.code).toBe('csrf_rejected');
    const foreign = await upload(token, part, { origin: 'https://evil.example' });
    expect(foreign.body.error.code).toBe('cross_origin_forbidden');
  });

  it('gives each upload a new URL and deletes the replaced file', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const first = (await upload(token, file(images.png!, 'a.png', 'image/png'))).body.data.avatar_url;
    const second = (await upload(token, file(images.png!, 'a.png', 'image/png'))).body.data.avatar_url;
    expect(second).not.toBe(first);
    expect((await served(first)).status).toBe(404);
    expect((await served(second)).status).toBe(200);
  });

  it('goes back to the initials avatar on DELETE, removing the file', async () => {
    const { player, token } = await createPlayerWithToken(h.ctx, { username: 'Del_Me', display_name: 'Dora Explorer' });
    const uploaded = (await upload(token, file(images.png!, 'a.png', 'image/png'))).body.data.avatar_url;
    const res = await h.http.delete('/v1/me/avatar', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.avatar_url).toMatch(/^http:\/\/localhost:8080\/avatars\/initials\/\d+\/DE\.svg$/);
    expect((await served(uploaded)).status).toBe(404);
    expect(stored().some((f) => f.startsWith(`${player.id}-`))).toBe(false);
    expect((await h.http.delete('/v1/me/avatar', { token })).status).toBe(200);
    expect((await h.http.delete('/v1/me/avatar')).status).toBe(401);
  });

  it("leaves another player's avatar alone", async () => {
    const a = await createPlayerWithToken(h.ctx);
    const b = await createPlayerWithToken(h.ctx);
    const bUrl = (await upload(b.token, file(images.gif!, 'b.gif', 'image/gif'))).body.data.avatar_url;
    await upload(a.token, file(images.png!, 'a.png', 'image/png'));
    await h.http.delete('/v1/me/avatar', { token: a.token });
    expect((await served(bUrl)).status).toBe(200);
    expect((await h.http.get('/v1/me', { token: b.token })).body.data.player.avatar_url).toBe(bUrl);
  });

  it('serves the initials SVG with a colour from the username, cached for good', async () => {
    const { token } = await createPlayerWithToken(h.ctx, { username: 'svg_test', display_name: 'Sam Vega' });
    const url = (await h.http.get('/v1/me', { token })).body.data.player.avatar_url;
    const res = await served(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toMatch(/^<svg [^>]*viewBox="0 0 256 256"/);
    expect(res.text).toContain('>SV</text>');
    const svg = await sharp(Buffer.from(res.text)).metadata();
    expect({ width: svg.width, height: svg.height }).toEqual({ width: 256, height: 256 });
    // another username, another colour; the same username in another case, the same colour
    await h.http.patch('/v1/me', { token, body: { username: 'SVG_TEST' } });
    expect((await h.http.get('/v1/me', { token })).body.data.player.avatar_url).toBe(url);
    await h.http.patch('/v1/me', { token, body: { username: 'other_name' } });
    const other = (await h.http.get('/v1/me', { token })).body.data.player.avatar_url;
    expect(other.replace(/\/\d+\//, '/')).toBe(url.replace(/\/\d+\//, '/'));
  });

  it.each([
    ['/avatars/initials/360/AB.svg'],
    ['/avatars/initials/12/ABC.svg'],
    ['/avatars/initials/12/%3Cs%3E.svg'],
    ['/avatars/initials/x/AB.svg'],
    ['/avatars/initials/12/AB.png'],
    ['/avatars/nothing-here.webp'],
    ['/avatars/../gameplatform.sqlite'],
  ])('answers %s with 404', async (url) => {
    expect((await h.http.get(url)).status).toBe(404);
  });
});
