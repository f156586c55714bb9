// The SDK in a page: finds the shell (the parent window on the portal's origin) and returns the GamePlatform object.
// One source for both builds: /sdk/v1.js (sdk/v1.ts, the global) and the npm package @gameplatform/sdk (sdk/module.ts).
import { Client, createSdk } from './client.js';

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

/** Connects to the shell hosting this frame. */
export function connect(): GamePlatform.SDK {
  const origin = portalOrigin();
  const shell = window.parent !== window ? window.parent : null;
  const client = new Client({
    // Posted to the portal's origin only: if the frame were embedded anywhere else, nothing would leave it.
    post: shell && origin ? (message) => shell.postMessage(message, origin) : undefined,
    onHandlerError: (error) => console.error('GamePlatform event handler failed', error),
  });
  window.addEventListener('message', (event) => {
    // Only the shell that hosts this frame, on the portal's origin, is listened to.
    if (!shell || event.source !== shell || event.origin !== origin) return;
    client.receive(event.data);
  });
  return Object.freeze(createSdk(client));
}
