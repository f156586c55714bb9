// The SDK guide served at /docs/sdk (the README's "Game SDK" section says the same).
import { escapeHtml } from './html.js';
import { enginesGuideHtml, frameRulesHtml } from './sdk-engines.js';
import { playViewSectionHtml, savesSectionHtml } from './sdk-docs-play.js';

const MINIMAL_GAME = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Clicker</title></head>
<body>
  <button id="click" type="button">Click me</button>
  <p id="status" role="status"></p>
  <script src="/sdk/v1.js"></script>
  <script src="game.js"></script>
</body>
</html>`;

const MINIMAL_SCRIPT = `// game.js
let clicks = 0;
const status = document.getElementById('status');

let version = 0;                                       // the version of slot 0 this page has seen (0: empty)

GamePlatform.init().then(async ({ player, entitlement }) => {
  status.textContent = \`Hello \${player.display_name}\`;
  const saved = await GamePlatform.saves.load(0);      // null when the slot is empty
  if (saved) {
    clicks = saved.state.clicks;
    version = saved.version;
  }
});

document.getElementById('click').addEventListener('click', () => {
  clicks += 1;
});

// Just before the daily limit closes the session: stop and keep the progress.
GamePlatform.on('pause', async ({ reason }) => {
  if (reason !== 'limit') return;                      // "replaced": the game goes on in another tab
  try {
    version = (await GamePlatform.saves.save(0, { format: 1, clicks }, { expected_version: version })).version;
  } catch (error) {
    // version_conflict: slot 0 was saved meanwhile on another device; it is kept, not overwritten
    // (see "Saves that never overwrite another device's" below).
  }
});

async function gameOver() {
  try {
    const result = await GamePlatform.scores.submit(clicks);   // board "main"
    status.textContent = \`Rank #\${result.rank.rank}\`;
  } catch (error) {
    if (GamePlatform.isError(error)) status.textContent = \`\${error.code}: \${error.message}\`;
  }
}`;

const GAME_JSON = `{
  "slug": "clicker", "name": "Clicker", "tagline": "Click fast", "description": null,
  "category": "casual", "tags": ["demo"], "version": "1.0.0", "orientation": "any",
  "players": { "min": 1, "max": 1 },
  "leaderboard": { "enabled": true, "order": "desc", "unit": "clicks" },
  "save_slots": 1, "requires_premium": false, "status": "published",
  "author": "You", "released_at": "2026-11-21", "cover": "cover.png", "entry": "index.html"
}`;

// tabindex: a block that scrolls sideways can be scrolled from the keyboard too.
const code = (text: string) => `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`;

export const sdkDocsHtml = `<article class="prose">
<h1>Game SDK</h1>
<p>A game runs inside the play shell at <code>/play/{slug}</code>, in a frame on an origin of its own: it loads its
files, module scripts and WebAssembly and keeps its storage as on any web host, and it cannot reach the portal's
cookie, page or API (<a href="#frame">the frame's rules</a>). The SDK asks the shell over <code>postMessage</code>; the
shell makes the API call for the player who is playing, limited to this game's own saves, scores and leaderboard, and
answers. Engine builds (Phaser, Vite, Unity, Godot, Construct): <a href="#engines">shipping an engine build</a>.</p>
<p>Types: <a href="/sdk/v1.d.ts"><code>/sdk/v1.d.ts</code></a> (reference it with <code>/// &lt;reference path="v1.d.ts" /&gt;</code>
or a <code>// @ts-check</code> JavaScript file). Script: <a href="/sdk/v1.js"><code>/sdk/v1.js</code></a>. The same SDK is an npm
package for games that bundle their code: <code>npm install @gameplatform/sdk</code>, then
<code>import { GamePlatform } from '@gameplatform/sdk'</code> (types included).</p>

<h2 id="local">Local mode: trying a game without the platform</h2>
<p>A page opened on its own (straight from your disk or your dev server, not in a frame) runs in local mode: the SDK
answers from a stand-in in the page. <code>init()</code> says <code>local: true</code> and the player is "Local player"
(id 0); saves and scores are kept in the browser's <code>localStorage</code>, with the platform's limits and errors
(<code>version_conflict</code>, <code>state_too_large</code>, 10 slots); <code>identityToken()</code> rejects with
<code>local_mode</code>; the console says so. Nothing reaches a platform.</p>

<h2 id="minimal">A minimal game</h2>
<p>Include the SDK with a classic <code>&lt;script src="/sdk/v1.js"&gt;</code> before your code (which may be a module).</p>
${code(MINIMAL_GAME)}
${code(MINIMAL_SCRIPT)}
<p>Publish the directory with <code>gameplatform games publish &lt;dir&gt;</code>; its <code>game.json</code> holds the game's fields and its entry file:</p>
${code(GAME_JSON)}

<h2 id="api">The API</h2>
<table>
<thead><tr><th scope="col">Call</th><th scope="col">Resolves with</th></tr></thead>
<tbody>
<tr><td><code>GamePlatform.init()</code></td><td><code>{local, game, player, entitlement, continue}</code>: <code>local</code> is true in local mode (below); the game's slug, name, save_slots and leaderboard settings, the player's id, username and display name, today's entitlement; <code>continue</code> is <code>{slot, version}</code> when the player chose to continue a save from the portal (load that slot at start), else <code>null</code></td></tr>
<tr><td><code>GamePlatform.on(event, handler)</code></td><td>a function that stops listening; events below</td></tr>
<tr><td><code>GamePlatform.saves.list()</code></td><td>the filled slots: <code>[{slot, label, version, size_bytes, created_at, updated_at}]</code></td></tr>
<tr><td><code>GamePlatform.saves.load(slot)</code></td><td><code>{slot, label, version, size_bytes, state, updated_at}</code>, or <code>null</code> for an empty slot</td></tr>
<tr><td><code>GamePlatform.saves.save(slot, state, {label?, expected_version?})</code></td><td><code>{slot, version, size_bytes, created}</code>; with <code>expected_version</code> the save happens only over that version (<code>0</code>: only into an empty slot)</td></tr>
<tr><td><code>GamePlatform.saves.delete(slot)</code></td><td><code>{deleted}</code></td></tr>
<tr><td><code>GamePlatform.scores.submit(score, {board?, meta?})</code></td><td><code>{accepted, score, board, rank: {rank, best}, personal_best}</code>; the shell ties it to the play session</td></tr>
<tr><td><code>GamePlatform.leaderboard.read({board?, period?, limit?, offset?, around?})</code></td><td><code>{rows, me, board, period, order, unit, limit, offset, total}</code>; <code>period</code> is <code>all</code>, <code>month</code>, <code>week</code> or <code>day</code></td></tr>
<tr><td><code>GamePlatform.identityToken()</code></td><td><code>{token, player_id, game, expires_in, expires_at}</code>: a signed token (JWT, ES256, 10 minutes) for your own backend, which verifies it against <code>/v1/.well-known/jwks.json</code> (audience: the game's slug) or with <code>POST /v1/dev/identity-token/verify</code></td></tr>
</tbody>
</table>
<p>Slots run from 0 to <code>save_slots - 1</code>; a state is any JSON value up to 262,144 bytes. Put a format number inside it for your own migrations.</p>

${savesSectionHtml}

<h2 id="events">Events</h2>
<table>
<thead><tr><th scope="col">Event</th><th scope="col">When</th><th scope="col">Data</th></tr></thead>
<tbody>
<tr><td><code>entitlement</code></td><td>after every heartbeat of the shell (every <code>heartbeat_interval</code> seconds while the tab is visible)</td><td>the Entitlement: <code>unlimited</code>, <code>remaining_seconds</code>, <code>limit_reached</code>, …</td></tr>
<tr><td><code>pause</code></td><td>stop the game loop. <code>limit</code>: just before the daily limit closes the session, save now. <code>replaced</code>: the player opened the game in another tab or on another device (do not save). <code>signed_out</code>: the player was signed out; the shell asks them to log in over the game, and the calls made meanwhile wait and are sent after the login, once</td><td><code>{reason: "limit" | "replaced" | "signed_out"}</code></td></tr>
<tr><td><code>limit</code></td><td>right after <code>pause</code>; a moment later the shell removes the game and explains the limit</td><td><code>{reason: "limit", entitlement}</code></td></tr>
<tr><td><code>resume</code></td><td>after a <code>pause</code> with reason <code>replaced</code>, the player chose <em>Play here</em>; with <code>signed_in</code>, the player logged in again: go on from where the game stood</td><td><code>{reason: "replaced" | "signed_in"}</code></td></tr>
<tr><td><code>quit</code></td><td>the player pressed Quit: save what must be kept. A handler may return a Promise: the shell waits for every handler to settle, at most 2 seconds, then removes the game</td><td><code>{reason: "quit"}</code></td></tr>
</tbody>
</table>

<h2 id="errors">Errors</h2>
<p>A refused call rejects with an error whose <code>name</code> is <code>GamePlatformError</code>, with <code>code</code>, <code>message</code>,
<code>status</code> (the HTTP status; 0 when the SDK or the shell refused) and <code>details</code> (every field of the API's error,
such as <code>current_version</code> or <code>fields</code>). <code>GamePlatform.isError(e)</code> tells them apart.</p>
<ul>
<li>API codes reach the game as they are: <code>version_conflict</code> (<code>details.current_version</code>), <code>state_too_large</code>, <code>validation_failed</code> (<code>details.fields</code>), <code>leaderboard_disabled</code>, <code>rate_limited</code>, …</li>
<li>SDK codes: <code>no_shell</code> (the page is in a frame that is not the play shell), <code>timeout</code> (no answer in 15 s), <code>bad_request</code> (an argument the SDK or shell refused), <code>unknown_method</code>, <code>session_over</code> (the shell has closed the session), <code>network_error</code>, <code>local_mode</code> (<code>identityToken()</code> in local mode).</li>
</ul>

<h2 id="protocol">The message envelope</h2>
<p>For the curious (the SDK does this for you). Game → shell: <code>{protocol: "gameplatform.sdk/1", type: "request", id, method, params}</code>.
Shell → game: <code>{protocol, type: "response", id, ok: true, result}</code> or <code>{…, ok: false, error: {code, message, status, …}}</code>,
and <code>{protocol, type: "event", event, data}</code>. The shell accepts messages only from the frame it created
(<code>event.source</code>) on the game's origin, and posts only to that origin; the SDK posts only to the portal's origin and
listens only to its parent window on that origin.</p>

${playViewSectionHtml}

${frameRulesHtml}
<p>Make the game playable with a keyboard, a mouse and touch; the shell focuses the frame when it has loaded.</p>

${enginesGuideHtml}
</article>`;
