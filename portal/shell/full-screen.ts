// The play bar's full-screen button. It puts the whole shell in full screen, bar included, not only the game's frame:
// a free player keeps the time left and a way out in view. Offered on phones too (Chrome on Android), where it is also
// how a game that wants one orientation gets it locked (orientation.ts); not where the page cannot go full screen
// (iPhone Safari, which offers it for videos only).
import { h, svg } from '../lib/dom.js';
import { lockOrientation, unlockOrientation } from './orientation.js';

/** Whether `target` can be put in full screen here. */
export function canGoFullScreen(target: HTMLElement): boolean {
  return Boolean(document.fullscreenEnabled) && typeof target.requestFullscreen === 'function';
}

/** Full screen for `target`, then the game's orientation locked where the browser allows it. */
export function enterFullScreen(target: HTMLElement, orientation: string): void {
  void target.requestFullscreen().then(
    () => lockOrientation(orientation),
    () => undefined,
  );
}

/** The toggle for `target`, or null where the page cannot go full screen (iPhone Safari, a frame without allowfullscreen). */
export function fullScreenButton(
  target: HTMLElement,
  orientation: string,
  onChange: () => void,
): HTMLButtonElement | null {
  if (!canGoFullScreen(target)) return null;
  // On a narrow bar only the icon shows; the words stay as the button's name.
  const words = h('span', { class: 'full-screen-words' }, 'Full screen');
  const icon = svg(
    'svg',
    { viewBox: '0 0 16 16', width: '16', height: '16', 'aria-hidden': 'true', focusable: 'false' },
    svg('path', {
      d: 'M1 5V1h4M11 1h4v4M15 11v4h-4M5 15H1v-4',
      fill: 'none',
      stroke: 'currentColor',
      'stroke-width': '2',
    }),
  );
  const button = h('button', { type: 'button', class: 'button small full-screen' }, icon, words);

  button.addEventListener('click', () => {
    if (document.fullscreenElement) return void document.exitFullscreen().catch(() => undefined);
    enterFullScreen(target, orientation);
  });
  document.addEventListener('fullscreenchange', () => {
    const full = document.fullscreenElement === target;
    words.textContent = full ? 'Exit full screen' : 'Full screen';
    if (!full) unlockOrientation();
    onChange();
  });
  return button;
}
