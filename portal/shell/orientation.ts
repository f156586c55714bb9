// A game that wants one orientation (game.json `orientation`), on a phone held the other way: a notice asks to turn
// the device, and where the browser can go full screen it offers that too, which locks the orientation the game wants
// (Chrome on Android; iPhone Safari has neither, so there the notice only asks). Shown by play-view.css's media
// queries (a coarse pointer in the wrong orientation), so turning the device takes it away.
import { h } from '../lib/dom.js';

type Lockable = ScreenOrientation & { lock?(orientation: 'portrait' | 'landscape'): Promise<void>; unlock?(): void };

const screenOrientation = () => screen.orientation as Lockable | undefined;

/** Locks the screen to the game's orientation; only granted in full screen on phones, refused quietly elsewhere. */
export function lockOrientation(orientation: string): void {
  if (orientation !== 'portrait' && orientation !== 'landscape') return;
  screenOrientation()
    ?.lock?.(orientation)
    .catch(() => undefined);
}

export function unlockOrientation(): void {
  try {
    screenOrientation()?.unlock?.();
  } catch {
    // nothing was locked
  }
}

/**
 * The notice for `stage` (whose class says the game's orientation); `fullScreen`, when the page can go full screen,
 * is offered as the first action. "Play anyway" dismisses it for this game.
 */
export function rotateHint(
  stage: HTMLElement,
  gameName: string,
  orientation: 'portrait' | 'landscape',
  fullScreen: (() => void) | null,
): HTMLElement {
  const anyway = h('button', { type: 'button', class: 'button small' }, 'Play anyway');
  anyway.addEventListener('click', () => stage.classList.add('hint-dismissed'));
  let full: HTMLButtonElement | null = null;
  if (fullScreen) {
    full = h('button', { type: 'button', class: 'button small primary' }, 'Full screen');
    full.addEventListener('click', fullScreen);
  }
  const turn = orientation === 'landscape' ? 'sideways' : 'upright';
  return h(
    'div',
    { class: 'rotate-hint', role: 'note' },
    h('p', null, `Turn your device ${turn} to play ${gameName}.`),
    h('div', { class: 'actions' }, full, anyway),
  );
}
