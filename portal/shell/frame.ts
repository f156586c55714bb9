// The game's frame (docs/portal.md, "The play shell"): the game runs on its own origin (games_url), which holds no portal cookie and no
// credential, so the frame may keep that origin (storage, fetch, module scripts, WebAssembly) and nothing more.
import { h } from '../lib/dom.js';

/**
 * Never allow-top-navigation (the game cannot move the portal's page) nor allow-forms' navigations; pop-ups (a studio's
 * site, a store page) open as ordinary pages. Pointer lock and orientation lock are for games; modals for engines that
 * report errors with alert().
 */
const SANDBOX = [
  'allow-scripts',
  'allow-pointer-lock',
  'allow-orientation-lock',
  'allow-modals',
  'allow-popups',
  'allow-popups-to-escape-sandbox',
  'allow-downloads',
];

/** Permissions the frame may use (Permissions Policy): full screen, gamepads, sound without a click, motion sensors. */
const ALLOW = ['fullscreen', 'gamepad', 'autoplay', 'accelerometer', 'gyroscope', 'screen-wake-lock'];

export interface GameFrame {
  frame: HTMLIFrameElement;
  /** the origin the game's messages come from and the shell's go to */
  origin: string;
}

/** The frame for a session's entry URL; `isolated` (game.json cross_origin_isolated) passes cross-origin isolation on. */
export function gameFrame(entryUrl: string, title: string, isolated: boolean): GameFrame {
  const origin = new URL(entryUrl, location.href).origin;
  // allow-same-origin only ever for a foreign origin: on the portal's own it would hand the game the player's session.
  const sandbox = origin === location.origin ? SANDBOX : ['allow-same-origin', ...SANDBOX];
  const allow = isolated ? [...ALLOW, 'cross-origin-isolated'] : ALLOW;
  const frame = h('iframe', {
    src: entryUrl,
    title,
    class: 'game-frame',
    sandbox: sandbox.join(' '),
    allow: allow.join('; '),
  });
  return { frame, origin };
}
