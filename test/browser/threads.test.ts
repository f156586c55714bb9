// A threaded Emscripten build in the play shell, the way Unity and Godot export with threads: FFmpeg's multi-threaded
// WebAssembly (@ffmpeg/core-mt from npm, a devDependency; nothing fetched at run time) runs a small encoding job in a
// worker, its pthreads in a pool of workers sharing a SharedArrayBuffer memory. game.json asks for
// cross_origin_isolated; without it the same game cannot start (no SharedArrayBuffer).
import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { tempDir } from '../helpers/temp.js';
import { browserSuite, until, type Rig } from './browser.js';
import { gameJson } from './engine-fixtures.js';

const CORE = path.resolve(import.meta.dirname, '../../node_modules/@ffmpeg/core-mt/dist/umd');

/** The job's worker: the core with its pthread pool, ten frames of a test pattern encoded with libx264 on two threads. */
const JOB = `importScripts('ffmpeg-core.js');
const here = (file) => new URL(file, location.href).href;
(async () => {
  const started = performance.now();
  const core = await createFFmpegCore({
    // As @ffmpeg/ffmpeg does: the pthreads load the core from this URL; the fragment names the wasm and the worker.
    mainScriptUrlOrBlob: here('ffmpeg-core.js') + '#' + btoa(JSON.stringify({ wasmURL: here('ffmpeg-core.wasm'), workerURL: here('ffmpeg-core.worker.js') })),
  });
  const log = [];
  core.setLogger(({ message }) => log.push(message));
  const code = core.exec('-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=10', '-frames:v', '10', '-c:v', 'libx264', '-threads', '2', 'out.mp4');
  const out = code === 0 ? core.FS.readFile('out.mp4') : new Uint8Array();
  postMessage({ code, bytes: out.length, mp4: out.length > 8 && String.fromCharCode(...out.slice(4, 8)), x264: log.some((l) => l.includes('libx264')), ms: Math.round(performance.now() - started) });
})().catch((error) => postMessage({ error: String(error && error.message || error) }));
`;

const PAGE = `const report = (result) => { document.body.dataset.result = JSON.stringify(result); };
if (!self.crossOriginIsolated) report({ isolated: false });
else {
  const job = new Worker('job.js');
  job.onmessage = (event) => report({ isolated: true, ...event.data });
  job.onerror = (event) => report({ isolated: true, error: event.message });
}
`;

function threadedGame(slug: string, isolated: boolean): string {
  const root = tempDir('gp-threads-');
  for (const file of ['ffmpeg-core.js', 'ffmpeg-core.wasm', 'ffmpeg-core.worker.js'])
    copyFileSync(path.join(CORE, file), path.join(root, file));
  writeFileSync(path.join(root, 'game.json'), gameJson(slug, { cross_origin_isolated: isolated }));
  writeFileSync(
    path.join(root, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Threads</title></head><body><p>FFmpeg, threaded</p><script src="page.js"></script></body></html>',
  );
  writeFileSync(path.join(root, 'page.js'), PAGE);
  writeFileSync(path.join(root, 'job.js'), JOB);
  writeFileSync(path.join(root, 'cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3"/>');
  return root;
}

browserSuite(
  'threads: an Emscripten pthreads build in the shell',
  { timeout: 180_000, rig: { host: 'gameplatform.localhost' } },
  (rig: Rig) => {
    async function play(page: Page, slug: string): Promise<Record<string, unknown>> {
      await page.goto(`/play/${slug}`);
      const handle = await page.locator('iframe.game-frame').elementHandle();
      const frame: Frame = (await handle!.contentFrame())!;
      await until(() => frame.locator('body').getAttribute('data-result'), 120_000).not.toBeNull();
      return JSON.parse((await frame.locator('body').getAttribute('data-result'))!);
    }

    it('encodes a short video with FFmpeg on threads, in a game that asks for cross_origin_isolated', async () => {
      await publishGame(rig.app.ctx, threadedGame('ffmpeg-mt', true));
      await publishGame(rig.app.ctx, threadedGame('ffmpeg-mt-plain', false));
      const page = await rig.newPage();
      await page.goto('/login');
      const status = await page.evaluate(
        `fetch('/v1/auth/register', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'ServiceSDK' }, body: JSON.stringify({ email: 'threads@example.com', password: 'correct horse battery', display_name: 'Threads' }) }).then((r) => r.status)`,
      );
      expect(status).toBe(201);

      const result = await play(page, 'ffmpeg-mt');
      expect(result).toMatchObject({ isolated: true, code: 0, mp4: 'ftyp', x264: true });
      expect(result.bytes).toBeGreaterThan(1000);

      // The same build without the setting: no cross-origin isolation, so no shared memory for its threads.
      expect(await play(page, 'ffmpeg-mt-plain')).toEqual({ isolated: false });
      expect(rig.problems).toEqual([]);
    });
  },
);
