// /sdk/v1.js: the script a game includes. It finds the shell (the parent window on the portal's origin) and defines the GamePlatform global.
import { Client, createSdk } from './client.js';

/** The server writes the portal's origin here when it serves the script, on the portal's origin and on every game's. */
const SERVED_FOR = '%PORTAL_ORIGIN%';

function portalOrigin(): string | null {
  if (!SERVED_FOR.startsWith('%')) return SERVED_FOR;
  // A copy the game ships in its own files: the portal is where the script came from, if not the game's own origin,
  // else the parent that hosts the frame (Chromium and Safari tell it).
  const script = document.currentScript as HTMLScriptElement | null;
  try {
    const from = script ? new URL(script.src).origin : null;
    if (from && from !== location.origin) return from;
  } catch {
    // an unreadable src: fall through
  }
  return location.ancestorOrigins?.[0] ?? null;
}

function install(): void {
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
  Object.defineProperty(window, 'GamePlatform', { value: Object.freeze(createSdk(client)), enumerable: true });
}

install();
