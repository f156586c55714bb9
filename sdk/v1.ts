// /sdk/v1.js: the script a game includes. It finds the shell (the parent window on the portal's origin) and defines the GamePlatform global.
import { Client, createSdk } from './client.js';

function portalOrigin(): string | null {
  const script = document.currentScript as HTMLScriptElement | null;
  try {
    return script ? new URL(script.src).origin : null;
  } catch {
    return null;
  }
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
