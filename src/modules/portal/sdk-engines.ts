// The parts of /docs/sdk on the game's frame and on shipping engine builds (README: "Game files on their own origin").
import { escapeHtml } from './html.js';

// tabindex: a block that scrolls sideways can be scrolled from the keyboard too.
const code = (text: string) => `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`;

export const frameRulesHtml = `<h2 id="frame">The game's frame</h2>
<p>Your game runs in a frame of the play shell, on an origin of its own: <code>https://{slug}.games.…</code> (the
operator's <code>games_url</code>; <code>http://{slug}.games.<wbr>gameplatform.localhost:8080</code> on a development machine). Its
files are at the root of that origin, in the folder layout you published. Nothing of the portal lives there: no
cookie, no credential, no API.</p>
<p><strong>Your game may</strong></p>
<ul>
<li>load its own files any way it likes: <code>fetch</code> and XHR, <code>&lt;script type="module"&gt;</code> and
<code>import()</code>, Web Workers, <code>WebAssembly.instantiateStreaming</code> (<code>.wasm</code> is served as
<code>application/wasm</code>), fonts, audio and video;</li>
<li>keep <code>localStorage</code>, IndexedDB and the Cache API: they are its own (with an origin per game, no other
game can read them);</li>
<li>lock the pointer, go full screen (<code>element.requestFullscreen()</code>), lock the orientation while full screen,
read gamepads, play sound without waiting for a click where the browser allows it, read motion sensors, keep the
screen awake;</li>
<li>open pop-ups and links in a new tab (they open as ordinary pages), offer downloads, use <code>alert()</code>;</li>
<li>ask for <code>crossOriginIsolated</code> (<code>SharedArrayBuffer</code>, threads) with
<code>"cross_origin_isolated": true</code> in <code>game.json</code>; every file it then loads from another origin must
allow it (CORS or <code>Cross-Origin-Resource-Policy</code>).</li>
</ul>
<p><strong>Your game cannot</strong></p>
<ul>
<li>navigate the portal's page (<code>top.location</code>, <code>target="_top"</code>), read its cookie, storage or
page, or be framed by any other site;</li>
<li>call the API: requests from its origin to the portal are refused. The SDK asks the shell, which calls the API for
the player who is playing, limited to this game's saves, scores and leaderboard;</li>
<li>start without a play session: the entry file is served only with the <code>?session=</code> the shell puts in its
URL (a reload of the same URL works while the session lasts). Every other file is public.</li>
</ul>
<p><strong>Files and caching.</strong> The shell loads your entry file under a versioned path
(<code>/~{version}/index.html</code>): relative URLs stay in that version, whose files are cached for good, so a
second visit downloads only the entry file. Root-absolute URLs (<code>/assets/x.js</code>) read the current version
(revalidated, unless the name carries a content hash, as Vite's <code>assets/index-BqA2ZdGd.js</code> and
webpack's <code>main.3f2a9c1b.js</code> do: cached for good), then the one it replaced. Publishing stores a brotli
and a gzip copy beside every file that compresses (scripts, WebAssembly, JSON, engine data…), so browsers get
compressed files with <code>Content-Length</code> (download progress) and the server compresses nothing per request.
Copies you ship (<code>x.br</code>, <code>x.gz</code>) are used as they are; files asked by a compressed name
(<code>Build/game.wasm.br</code>) are sent with <code>Content-Encoding</code> and the real type. At most 5,000 files
and 1 GiB per game.</p>
<p><strong>Storage is not a save system.</strong> Browsers may clear it, players switch devices, and where the
operator runs games on a domain of their own, browsers that block third-party storage deny it. Keep progress that
matters in save slots (<code>GamePlatform.saves</code>); use local storage for settings and caches.</p>`;

const VITE_HTML = `<!-- index.html: the SDK is a classic script, before your module -->
<script src="/sdk/v1.js"></script>
<script type="module" src="/src/main.ts"></script>`;

const UNITY_TEMPLATE = `<!-- Assets/WebGLTemplates/GamePlatform/index.html, after the loader script -->
<script src="/sdk/v1.js"></script>`;

const UNITY_JSLIB = `// Assets/Plugins/GamePlatform.jslib
mergeInto(LibraryManager.library, {
  SubmitScore: function (score) { GamePlatform.scores.submit(score); },
});`;

const GODOT = `# Export → Web → HTML → Head Include:  <script src="/sdk/v1.js"></script>
var platform = JavaScriptBridge.get_interface("GamePlatform")
platform.scores.submit(score)`;

export const enginesGuideHtml = `<h2 id="engines">Shipping an engine build</h2>
<p>Publish the folder your engine exports, with a <code>game.json</code> beside <code>index.html</code> and a cover
image among the files (<code>gameplatform games publish &lt;dir&gt;</code>). Add <code>&lt;script
src="/sdk/v1.js"&gt;&lt;/script&gt;</code> to the page before your game's code: it defines the
<code>GamePlatform</code> global on every engine.</p>
<table>
<thead><tr><th scope="col">Engine</th><th scope="col">Upload</th><th scope="col"><code>game.json</code></th></tr></thead>
<tbody>
<tr><td>Phaser, PixiJS, three.js</td><td>your bundle, <code>index.html</code> and the assets folder; loader paths relative (<code>assets/atlas.json</code>)</td><td><code>orientation</code> as your scale settings; nothing else</td></tr>
<tr><td>Vite (any framework)</td><td>the <code>dist/</code> folder of a plain <code>vite build</code>; put <code>game.json</code> and the cover in <code>public/</code> so they land there</td><td>nothing special; with a <code>games_url</code> shared by all games (<code>…/{slug}</code> in the path) build with <code>base: './'</code></td></tr>
<tr><td>Unity WebGL</td><td>the build folder: <code>index.html</code>, <code>Build/</code>, <code>TemplateData/</code>; Brotli or Gzip compression both work, no decompression fallback needed</td><td><code>"cross_origin_isolated": true</code> for builds with native multithreading</td></tr>
<tr><td>Godot 4</td><td>the Web export: <code>index.html</code>, <code>.js</code>, <code>.wasm</code>, <code>.pck</code>, the audio worklets</td><td><code>"cross_origin_isolated": true</code> for an export with threads (every export before 4.3; from 4.3 the "Thread Support" option); not needed without</td></tr>
<tr><td>Construct 3</td><td>the "Web (HTML5)" export folder</td><td>nothing special; turn off offline support if you do not need it</td></tr>
</tbody>
</table>
<h3 id="phaser">Phaser</h3>
<p>Use <code>scale: {mode: Phaser.Scale.FIT, autoCenter: Phaser.Scale.CENTER_BOTH}</code> so the game fits the frame,
pause your scenes on the <code>pause</code> event, and submit scores with <code>GamePlatform.scores.submit</code>.
The demo game Star Catcher is built this way (<code>games/star-catcher</code>).</p>
<h3 id="vite">Vite</h3>
${code(VITE_HTML)}
<p>Vite leaves the classic SDK script as it is (it warns that it cannot bundle it). In TypeScript, reference the types
with <code>/// &lt;reference path="./gameplatform.d.ts" /&gt;</code> (a copy of <code>/sdk/v1.d.ts</code>).</p>
<h3 id="unity">Unity WebGL</h3>
<p>Use a WebGL template that includes the SDK, and reach it from C# through a <code>.jslib</code> plug-in
(<code>[DllImport("__Internal")] static extern void SubmitScore(int score);</code>):</p>
${code(UNITY_TEMPLATE)}
${code(UNITY_JSLIB)}
<h3 id="godot">Godot 4</h3>
${code(GODOT)}
<h3 id="construct">Construct 3</h3>
<p>Add <code>&lt;script src="/sdk/v1.js"&gt;&lt;/script&gt;</code> to the exported <code>index.html</code> (or load it
from a script file), then call <code>globalThis.GamePlatform</code> from your event sheets' scripts.</p>`;
