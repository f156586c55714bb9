// Builds through the API: an upload in parts (resumable) becomes a numbered, immutable build; release switches the game
// to it at once, rollback goes back, pages in progress keep their build, old builds are pruned with their files.
import { once } from 'node:events';
import { readdir } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { sweepUploads } from '../../src/modules/games/uploads.service.js';
import { createPlayer, createPlaySession, fixtureCopy } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';
import { buildZip, createStudio, createStudioGame, deploy, memberOf, storedKeys } from '../helpers/studios.js';

/** Waits until `check` holds (polling the disk, which tells no event when a file appears or goes). */
const until = (check: () => Promise<boolean>) =>
  vi.waitFor(async () => expect(await check()).toBe(true), { timeout: 10_000 });

eachDialect(
  'studios: builds',
  (h) => {
    let studio: Awaited<ReturnType<typeof createStudio>>;
    let member: Awaited<ReturnType<typeof memberOf>>;
    beforeAll(async () => {
      studio = await createStudio(h.ctx);
      member = await memberOf(h.ctx, studio.id, 'developer', { username: `dev_${Date.now().toString(36)}` });
    });
    const newGame = () => createStudioGame(h.ctx, studio.id);
    const filesUrl = (slug: string, file: string) => `http://${slug}.games.localhost:8080/${file}`;

    describe('uploads', () => {
      it('makes build 1 of an upload in parts, with its version, size, uploader and time, not released', async () => {
        const game = await newGame();
        const zip = await buildZip(game.slug, { manifest: { version: '0.3.0' } });
        const res = await deploy(h.http, member.token, game.slug, zip, { partSize: 200 });
        expect(res.status, res.text).toBe(201);
        expect(res.body.data).toMatchObject({
          number: 1,
          version: '0.3.0',
          state: 'ready',
          live: false,
          files: 5,
          uploaded_by: member.player.username,
          uploaded_with: 'token',
          released_at: null,
          entry: 'index.html',
          preview_url: `${h.config.public_url}/preview/${game.slug}/1`,
        });
        expect(res.body.data.bytes).toBeGreaterThan(0);
        expect(res.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        const stored = await storedKeys(h.ctx, `games/${game.slug}/`);
        expect(stored.map((k) => k.split('/').slice(3).join('/')).sort()).toEqual(
          ['assets/ship.svg', 'cover.png', 'game.js', 'index.html', 'style.css'].sort(),
        );
        expect(await storedKeys(h.ctx, 'uploads/')).toEqual([]);
        const list = await h.http.get(`/v1/studio/games/${game.slug}/builds`, { token: member.token });
        expect(list.body.data.builds.map((b: { number: number }) => b.number)).toEqual([1]);
      });

      it('resumes an interrupted upload: it lists the parts it holds, refuses to complete with one missing, then completes', async () => {
        const game = await newGame();
        const zip = await buildZip(game.slug);
        const token = member.token;
        const started = await h.http.post(`/v1/studio/games/${game.slug}/uploads`, {
          token,
          body: { size: zip.length },
        });
        expect(started.status).toBe(201);
        const id = started.body.data.id;
        const half = Math.ceil(zip.length / 2);
        const put = (part: number, bytes: Buffer) =>
          h.http.put(`/v1/studio/games/${game.slug}/uploads/${id}/parts/${part}`, {
            token,
            body: bytes,
            contentType: 'application/octet-stream',
          });
        expect((await put(1, zip.subarray(0, half))).status).toBe(200);
        const status = await h.http.get(`/v1/studio/games/${game.slug}/uploads/${id}`, { token });
        expect(status.body.data).toMatchObject({ size: zip.length, received: half, parts: [{ part: 1, size: half }] });
        const early = await h.http.post(`/v1/studio/games/${game.slug}/uploads/${id}/complete`, { token });
        expect(early.status).toBe(409);
        expect(early.body.error).toMatchObject({ code: 'upload_incomplete', received: half, size: zip.length });
        // the same part again replaces it; then the missing one
        expect((await put(1, zip.subarray(0, half))).status).toBe(200);
        expect((await put(2, zip.subarray(half))).status).toBe(200);
        const done = await h.http.post(`/v1/studio/games/${game.slug}/uploads/${id}/complete`, { token });
        expect(done.status, done.text).toBe(201);
        expect(done.body.data.number).toBe(1);
        expect((await h.http.get(`/v1/studio/games/${game.slug}/uploads/${id}`, { token })).status).toBe(404);
      });

      it('refuses a part without Content-Length bytes to match, a part of another type, and an upload over builds.max_bytes', async () => {
        const game = await newGame();
        const token = member.token;
        const big = await h.http.post(`/v1/studio/games/${game.slug}/uploads`, {
          token,
          body: { size: h.config.builds.max_bytes + 1 },
        });
        expect(big.status).toBe(413);
        const started = await h.http.post(`/v1/studio/games/${game.slug}/uploads`, { token, body: { size: 10 } });
        const id = started.body.data.id;
        const json = await h.http.put(`/v1/studio/games/${game.slug}/uploads/${id}/parts/1`, { token, body: { a: 1 } });
        expect(json.status).toBe(415);
        const tooBig = await h.http.put(`/v1/studio/games/${game.slug}/uploads/${id}/parts/1`, {
          token,
          body: Buffer.alloc(11),
          contentType: 'application/octet-stream',
        });
        expect(tooBig.status).toBe(413);
        expect(await storedKeys(h.ctx, `uploads/${id}/`)).toEqual([]);
        const cancelled = await h.http.delete(`/v1/studio/games/${game.slug}/uploads/${id}`, { token });
        expect(cancelled.status).toBe(200);
        expect((await h.http.get(`/v1/studio/games/${game.slug}/uploads/${id}`, { token })).status).toBe(404);
      });

      it('keeps nothing of a part whose connection is cut before it is whole', async () => {
        const game = await newGame();
        const started = await h.http.post(`/v1/studio/games/${game.slug}/uploads`, {
          token: member.token,
          body: { size: 4096 },
        });
        const id = started.body.data.id;
        const address = await h.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => h.app.server.address());
        const port = typeof address === 'string' ? Number(new URL(address).port) : (address as AddressInfo).port;
        const socket = net.connect(port, '127.0.0.1');
        await once(socket, 'connect');
        socket.write(
          `PUT /v1/studio/games/${game.slug}/uploads/${id}/parts/1 HTTP/1.1\r\nHost: localhost:8080\r\n` +
            `Authorization: Bearer ${member.token}\r\nContent-Type: application/octet-stream\r\nContent-Length: 4096\r\n\r\n`,
        );
        socket.write(Buffer.alloc(1000, 1));
        // the part reaches the store's writer before the cut
        await until(async () => (await readdir(path.join(h.dataDir, 'uploads', id)).catch(() => [])).length > 0);
        socket.destroy();
        await until(async () => (await readdir(path.join(h.dataDir, 'uploads', id)).catch(() => [])).length === 0);
        expect(await storedKeys(h.ctx, `uploads/${id}/`)).toEqual([]);
        const status = await h.http.get(`/v1/studio/games/${game.slug}/uploads/${id}`, { token: member.token });
        expect(status.body.data).toMatchObject({ received: 0, parts: [] });
      });

      it('numbers builds made at the same moment 1, 2, 3 without a gap or a repeat', async () => {
        const game = await newGame();
        const zips = await Promise.all(
          [1, 2, 3].map((n) => buildZip(game.slug, { manifest: { version: `1.0.${n}` } })),
        );
        const done = await Promise.all(zips.map((zip) => deploy(h.http, member.token, game.slug, zip)));
        expect(done.map((r) => r.status)).toEqual([201, 201, 201]);
        expect(done.map((r) => r.body.data.number).sort()).toEqual([1, 2, 3]);
      });
    });

    describe('release and rollback', () => {
      it('releases a build: the game serves it at once, its first release fills the listing, and its status stays draft', async () => {
        const game = await newGame();
        await deploy(h.http, member.token, game.slug, await buildZip(game.slug, { manifest: { version: '1.0.0' } }));
        const released = await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token: member.token });
        expect(released.status, released.text).toBe(200);
        expect(released.body.data).toMatchObject({ previous: null, changed: true, build: { number: 1, live: true } });
        expect(released.body.data.build.released_at).not.toBeNull();
        const view = await h.http.get(`/v1/studio/games/${game.slug}`, { token: member.token });
        expect(view.body.data).toMatchObject({
          status: 'draft',
          version: '1.0.0',
          live_build: 1,
          tagline: 'Slingshot around planets without crashing',
          author: 'Nebula Works',
        });
        expect((await h.http.get(`/v1/games/${game.slug}`)).status).toBe(404);
        const published = await h.http.put(`/v1/studio/games/${game.slug}/status`, {
          token: member.token,
          body: { status: 'published' },
        });
        expect(published.status).toBe(200);
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.version).toBe('1.0.0');
        const again = await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token: member.token });
        expect(again.body.data).toMatchObject({ changed: false, previous: 1 });
      });

      it('rolls back to the build live before in one call, and a second rollback comes back', async () => {
        const game = await newGame();
        const token = member.token;
        for (const version of ['1.0.0', '2.0.0'])
          await deploy(h.http, token, game.slug, await buildZip(game.slug, { manifest: { version } }));
        expect((await h.http.post(`/v1/studio/games/${game.slug}/rollback`, { token })).body.error.code).toBe(
          'no_previous_build',
        );
        await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
        await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
        const second = await h.http.post(`/v1/studio/games/${game.slug}/builds/2/release`, { token });
        expect(second.body.data).toMatchObject({ previous: 1, build: { number: 2 } });
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.version).toBe('2.0.0');
        const back = await h.http.post(`/v1/studio/games/${game.slug}/rollback`, { token });
        expect(back.status).toBe(200);
        expect(back.body.data).toMatchObject({ previous: 2, build: { number: 1, live: true } });
        expect((await h.http.get(`/v1/games/${game.slug}`)).body.data.version).toBe('1.0.0');
        const forth = await h.http.post(`/v1/studio/games/${game.slug}/rollback`, { token });
        expect(forth.body.data.build.number).toBe(2);
        const builds = (await h.http.get(`/v1/studio/games/${game.slug}/builds`, { token })).body.data.builds;
        expect(builds.map((b: { number: number; live: boolean }) => [b.number, b.live])).toEqual([
          [2, true],
          [1, false],
        ]);
      });

      it('keeps a page in progress on its build: its files and its entry file after a release', async () => {
        const game = await newGame();
        const token = member.token;
        await deploy(h.http, token, game.slug, await buildZip(game.slug, { files: { 'game.js': 'one' } }));
        await deploy(h.http, token, game.slug, await buildZip(game.slug, { files: { 'game.js': 'two' } }));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
        await h.http.put(`/v1/studio/games/${game.slug}/status`, { token, body: { status: 'published' } });
        const player = await createPlayer(h.ctx);
        const session = await createPlaySession(h.ctx, player.id, game.id, { status: 'active' });
        const first = await h.ctx.db
          .selectFrom('games')
          .select('files_dir')
          .where('id', '=', game.id)
          .executeTakeFirstOrThrow();
        await h.http.post(`/v1/studio/games/${game.slug}/builds/2/release`, { token });
        await deploy(h.http, token, game.slug, await buildZip(game.slug, { files: { 'game.js': 'three' } }));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/3/release`, { token });
        // two releases later, the page of build 1 still loads its own files, and its entry file with its session
        const file = await h.http.get(filesUrl(game.slug, `~${first.files_dir}/game.js`));
        expect(file.status).toBe(200);
        expect(file.text).toBe('one');
        const entry = await h.http.get(filesUrl(game.slug, `~${first.files_dir}/index.html?session=${session.token}`));
        expect(entry.status).toBe(200);
        expect((await h.http.get(filesUrl(game.slug, 'game.js'))).text).toBe('three');
      });

      it('refuses to release a build of another game, an unknown one, and answers for a game with no builds', async () => {
        const game = await newGame();
        const other = await newGame();
        await deploy(h.http, member.token, other.slug, await buildZip(other.slug));
        const res = await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token: member.token });
        expect(res.status).toBe(404);
        expect(
          (await h.http.get(`/v1/studio/games/${game.slug}/builds`, { token: member.token })).body.data.builds,
        ).toEqual([]);
      });
    });

    describe('pruning', () => {
      it('prunes the builds past builds.keep with their files, never the live one, and refuses to release a pruned one', async () => {
        const game = await newGame();
        const token = member.token;
        await deploy(h.http, token, game.slug, await buildZip(game.slug));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
        for (let n = 2; n <= 5; n++) await deploy(h.http, token, game.slug, await buildZip(game.slug));
        const builds = (await h.http.get(`/v1/studio/games/${game.slug}/builds`, { token })).body.data.builds;
        // keep 3: builds 5, 4, 3 are the newest; 1 is live; 2 is pruned
        expect(builds.map((b: { number: number; state: string }) => [b.number, b.state])).toEqual([
          [5, 'ready'],
          [4, 'ready'],
          [3, 'ready'],
          [2, 'pruned'],
          [1, 'ready'],
        ]);
        const sets = await h.ctx.db
          .selectFrom('game_builds')
          .select(['number', 'files_dir'])
          .where('game_id', '=', game.id)
          .execute();
        const setOf = (n: number) => sets.find((s) => s.number === n)!.files_dir;
        expect(await storedKeys(h.ctx, `games/${game.slug}/${setOf(2)}/`)).toEqual([]);
        expect((await storedKeys(h.ctx, `games/${game.slug}/${setOf(1)}/`)).length).toBe(5);
        const refused = await h.http.post(`/v1/studio/games/${game.slug}/builds/2/release`, { token });
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('build_pruned');
        expect((await h.http.get(filesUrl(game.slug, `~${setOf(2)}/game.js`))).status).toBe(404);
      });
    });

    describe("uploads left behind, and the operators' publish", () => {
      it('deletes an upload past builds.upload_ttl_hours with its parts, and parts whose upload is gone', async () => {
        const game = await newGame();
        const started = await h.http.post(`/v1/studio/games/${game.slug}/uploads`, {
          token: member.token,
          body: { size: 8 },
        });
        const id = started.body.data.id;
        await h.http.put(`/v1/studio/games/${game.slug}/uploads/${id}/parts/1`, {
          token: member.token,
          body: Buffer.from('abcd'),
          contentType: 'application/octet-stream',
        });
        const orphan = 'f'.repeat(24);
        await h.ctx.storage.put(`uploads/${orphan}/00001`, Buffer.from('left'));
        await sweepUploads(h.ctx);
        expect(await storedKeys(h.ctx, `uploads/${id}/`)).toHaveLength(1);
        expect(await storedKeys(h.ctx, `uploads/${orphan}/`)).toEqual([]);
        h.clock.advance(h.config.builds.upload_ttl_hours * 3600);
        await sweepUploads(h.ctx);
        expect(await storedKeys(h.ctx, `uploads/${id}/`)).toEqual([]);
        expect((await h.http.get(`/v1/studio/games/${game.slug}/uploads/${id}`, { token: member.token })).status).toBe(
          404,
        );
      });

      it("keeps every build's files when an operator publishes the game on the server, and releases one again", async () => {
        const game = await newGame();
        const token = member.token;
        await deploy(h.http, token, game.slug, await buildZip(game.slug));
        await deploy(h.http, token, game.slug, await buildZip(game.slug));
        await h.http.post(`/v1/studio/games/${game.slug}/builds/1/release`, { token });
        for (let i = 0; i < 3; i++)
          await publishGame(h.ctx, fixtureCopy('orbit-dash', { manifest: { slug: game.slug } }));
        const sets = await h.ctx.db
          .selectFrom('game_builds')
          .select('files_dir')
          .where('game_id', '=', game.id)
          .execute();
        for (const { files_dir } of sets)
          expect(await storedKeys(h.ctx, `games/${game.slug}/${files_dir}/`)).toHaveLength(5);
        const view = (await h.http.get(`/v1/studio/games/${game.slug}`, { token })).body.data;
        expect(view.live_build).toBeNull();
        expect(
          (await h.http.post(`/v1/studio/games/${game.slug}/builds/2/release`, { token })).body.data,
        ).toMatchObject({
          changed: true,
          previous: null,
        });
      });
    });

    describe('files of builds', () => {
      it("serves a build's files at its file set before it is released, its entry file only with a preview of it", async () => {
        const game = await newGame();
        await deploy(h.http, member.token, game.slug, await buildZip(game.slug, { files: { 'game.js': 'b1' } }));
        await deploy(h.http, member.token, game.slug, await buildZip(game.slug, { files: { 'game.js': 'b2' } }));
        const preview = await h.http.post(`/v1/studio/games/${game.slug}/builds/1/preview`, { token: member.token });
        expect(preview.status, preview.text).toBe(201);
        const { entry_url, session } = preview.body.data;
        expect(session).toMatch(/^pv_/);
        const set = new URL(entry_url).pathname.split('/')[1]!;
        expect(set).toMatch(/^~[a-z0-9]+-[a-f0-9]{32}$/);
        const entry = await h.http.get(entry_url);
        expect(entry.status).toBe(200);
        expect(entry.headers['cache-control']).toBe('no-store');
        expect(entry.headers['referrer-policy']).toBe('same-origin');
        expect((await h.http.get(filesUrl(game.slug, `${set}/game.js`))).text).toBe('b1');
        expect((await h.http.get(filesUrl(game.slug, `${set}/index.html`))).status).toBe(403);
        // build 2's preview token does not open build 1
        const other = (await h.http.post(`/v1/studio/games/${game.slug}/builds/2/preview`, { token: member.token }))
          .body.data;
        expect((await h.http.get(filesUrl(game.slug, `${set}/index.html?session=${other.session}`))).status).toBe(403);
        // a draft game has no plain URLs; a page of the preview asks by Referer and is sent to its build
        expect((await h.http.get(filesUrl(game.slug, 'game.js'))).status).toBe(404);
        const pinned = await h.http.get(filesUrl(game.slug, 'game.js?v=1'), { headers: { referer: entry_url } });
        expect(pinned.status).toBe(302);
        expect(pinned.headers.location).toBe(filesUrl(game.slug, `${set}/game.js?v=1`));
      });

      it('ends a preview after 12 hours', async () => {
        const game = await newGame();
        await deploy(h.http, member.token, game.slug, await buildZip(game.slug));
        const { entry_url } = (
          await h.http.post(`/v1/studio/games/${game.slug}/builds/1/preview`, { token: member.token })
        ).body.data;
        expect((await h.http.get(entry_url)).status).toBe(200);
        h.clock.advance(12 * 3600);
        expect((await h.http.get(entry_url)).status).toBe(403);
      });
    });
  },
  { settings: { 'builds.keep': 3 } },
);
