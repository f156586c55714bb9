// Games built the way studios build them, for the engine tests: a default Vite build (ES modules, a dynamic import,
// root-absolute asset URLs) that fetches JSON, instantiates WebAssembly by streaming and keeps localStorage,
// IndexedDB and the Cache API; and a page that reports whether it is cross-origin isolated.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';

const COVER =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 36"><rect width="64" height="36" fill="#334155"/></svg>';

/** `add(a, b)` exported from a WebAssembly module, assembled by hand (type, function, export and code sections). */
export const ADD_WASM = Buffer.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x07, 0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x03, 0x02,
  0x01, 0x00, 0x07, 0x07, 0x01, 0x03, 0x61, 0x64, 0x64, 0x00, 0x00, 0x0a, 0x09, 0x01, 0x07, 0x00, 0x20, 0x00, 0x20,
  0x01, 0x6a, 0x0b,
]);

export function gameJson(slug: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    slug,
    name: `Probe ${slug}`,
    category: 'test',
    version: '1.0.0',
    author: 'Tests',
    released_at: '2026-11-23',
    cover: 'cover.svg',
    ...extra,
  });
}

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
}

const MAIN = `import { answer } from './answer.js';

const result = { module: answer() };
const report = () => { document.body.dataset.result = JSON.stringify(result); };
const step = async (name, run) => {
  try { result[name] = await run(); } catch (error) { result[name] = 'failed: ' + (error && error.message); }
};

await step('lazy', async () => (await import('./lazy.js')).lazy());
await step('json', async () => (await (await fetch('/level.json')).json()).name);
await step('wasm', async () => {
  const { instance } = await WebAssembly.instantiateStreaming(fetch('/add.wasm'));
  return instance.exports.add(2, 3);
});
await step('visits', async () => {
  const visits = Number(localStorage.getItem('visits') ?? 0) + 1;
  localStorage.setItem('visits', String(visits));
  return visits;
});
await step('indexeddb', () => new Promise((resolve, reject) => {
  const open = indexedDB.open('probe', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('kv');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction('kv', 'readwrite');
    tx.objectStore('kv').put('kept', 'key');
    tx.oncomplete = () => resolve('kept');
    tx.onerror = () => reject(tx.error);
  };
}));
await step('cache', async () => {
  const cache = await caches.open('probe');
  await cache.put('/kept', new Response('cached'));
  return (await (await cache.match('/kept')).text());
});
await step('player', async () => (await GamePlatform.init()).player.display_name);
report();
`;

/** The sources of a Vite game (vite's defaults: base "/", ES modules); `build` it, then add game.json to the output. */
export function viteSources(): string {
  const root = tempDir('gp-vite-');
  write(root, {
    'index.html':
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vite probe</title></head><body>\n<p>Vite probe</p>\n<script src="/sdk/v1.js"></script>\n<script type="module" src="/src/main.js"></script>\n</body></html>\n',
    'src/main.js': MAIN,
    'src/answer.js': "export const answer = () => 'ok';\n",
    'src/lazy.js': "export const lazy = () => 'loaded';\n",
    'public/level.json': JSON.stringify({ name: 'level one', tiles: [1, 2, 3] }),
    'public/add.wasm': ADD_WASM,
    'public/cover.svg': COVER,
  });
  return root;
}

/** A page that tells whether it is cross-origin isolated, and whether a SharedArrayBuffer can be made there. */
export function isolationProbe(slug: string, isolated: boolean): string {
  const root = tempDir('gp-coi-');
  write(root, {
    'game.json': gameJson(slug, { cross_origin_isolated: isolated }),
    'index.html':
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Isolation probe</title></head><body><p>probe</p><script src="probe.js"></script></body></html>',
    'probe.js':
      "document.body.dataset.result = JSON.stringify({ isolated: self.crossOriginIsolated, sab: typeof SharedArrayBuffer === 'function' && new SharedArrayBuffer(8).byteLength });\n",
    'cover.svg': COVER,
  });
  return root;
}

export function writeGameJson(dir: string, slug: string): void {
  writeFileSync(path.join(dir, 'game.json'), gameJson(slug));
}
