// The SDK in a page: finds the shell (the parent window on the portal's origin) and returns the GamePlatform object.
// One source for both builds: /sdk/v1.js (sdk/v1.ts, the global) and the npm package @gameplatform/sdk (sdk/module.ts).
import { Client, createSdk } from './client.js';
import { LocalStandIn, type StorageLike } from './local.js';
import { readManifest, Simulator, simulationFlags, simulationPanel } from './local-page.js';
import { event, type MethodName, type Methods } from './protocol.js';

/** The server writes the portal's origin here when it serves /sdk/v1.js, on the portal's origin and on every game's. */
const SERVED_FOR = '%PORTAL_ORIGIN%';

function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

function portalOrigin(): string | null {
  if (!SERVED_FOR.startsWith('%')) return SERVED_FOR;
  // A copy the game ships in its own files, or the npm package bundled into the game: the portal is where the script
  // came from, if not the game's own origin; else the parent that hosts the frame (Chromium and Safari tell it); else the
  // page that loaded the frame (the shell's page: Firefox), which the browser checks again on every postMessage.
  const script = document.currentScript as HTMLScriptElement | null;
  const from = originOf(script?.src);
  if (from && from !== location.origin) return from;
  return location.ancestorOrigins?.[0] ?? originOf(document.referrer);
}

function pageStorage(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage refused (a sandbox, a privacy setting): the stand-in keeps to memory
  }
}

/** Local mode's stand-in, kept per directory of the page (file:// pages share one origin). */
function localStandIn(): LocalStandIn {
  const dir = location.pathname.replace(/[^/]*$/, '');
  const slug = dir.split('/').filter(Boolean).pop() ?? '';
  const standIn = new LocalStandIn({
    storage: pageStorage(),
    key: `gameplatform.local:${dir}`,
    slug: /^[a-z0-9-]{1,60}$/.test(slug) ? slug : 'local-game',
    name: document.title,
  });
  console.info(
    `GamePlatform: local mode. This page is not in the Game Platform play shell, so the SDK answers from a stand-in: saves and scores stay in this browser (localStorage "${standIn.key}"), the player is "Local player", and nothing reaches a platform. Add ?gp_simulate=entitlement,pause,limit to the URL to try the platform's events. Publish the game and play it at /play/<slug> for the real thing.`,
  );
  return standIn;
}

/** Local mode's answers: after game.json is read, and with the platform's events simulated when the URL asks. */
function localAnswers(standIn: LocalStandIn, client: () => Client) {
  const ready = readManifest(standIn);
  const flags = simulationFlags(location.search);
  const simulator = flags ? new Simulator(standIn, (name, data) => client().receive(event(name, data)), flags) : null;
  if (simulator) {
    const show = () => document.documentElement.append(simulationPanel(simulator));
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show, { once: true });
    else show();
  }
  return async <M extends MethodName>(method: M, params: Methods[M]['params']) => {
    await ready;
    if (method === 'init') simulator?.start();
    return standIn.answer(method, params);
  };
}

/** Connects to the shell hosting this frame; a page on its own (no parent frame) gets local mode. */
export function connect(): GamePlatform.SDK {
  const origin = portalOrigin();
  const shell = window.parent !== window ? window.parent : null;
  // Only a top-level page is local: a frame whose shell cannot be found keeps answering no_shell, so a game in the
  // real shell never writes its saves to the page by mistake.
  const standIn = shell ? null : localStandIn();
  const client: Client = new Client({
    // Posted to the portal's origin only: if the frame were embedded anywhere else, nothing would leave it.
    post: shell && origin ? (message) => shell.postMessage(message, origin) : undefined,
    local: standIn ? localAnswers(standIn, () => client) : undefined,
    onHandlerError: (error) => console.error('GamePlatform event handler failed', error),
  });
  window.addEventListener('message', (event) => {
    // Only the shell that hosts this frame, on the portal's origin, is listened to.
    if (!shell || event.source !== shell || event.origin !== origin) return;
    client.receive(event.data);
  });
  return Object.freeze(createSdk(client));
}
