// The play bar's full-screen button. It puts the whole shell in full screen, bar included, not only the game's frame:
// a free player keeps the time left and a way out in view. A game that wants one orientation gets it locked where the
// browser allows that (phones, in full screen); elsewhere the lock is refused and nothing else changes.
import { h, svg } from '../lib/dom.js';

type Orientation = 'any' | 'portrait' | 'landscape' | string;

interface LockableOrientation {
  lock?(orientation: 'portrait' | 'landscape'): Promise<void>;
  unlock?(): void;
}

/** The toggle for `target`, or null where the page cannot go full screen (iPhone Safari, a frame without allowfullscreen). */
export function fullScreenButton(
  target: HTMLElement,
  orientation: Orientation,
  onChange: () => void,
): HTMLButtonElement | null {
  if (!document.fullscreenEnabled || typeof target.requestFullscreen !== 'function') return null;
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
  // Not on a phone (.hide-narrow): there the bar is the one thing beside the game, and the browser's own controls serve.
  const button = h('button', { type: 'button', class: 'button small full-screen hide-narrow' }, icon, words);
  const screenOrientation = screen.orientation as (ScreenOrientation & LockableOrientation) | undefined;

  button.addEventListener('click', () => {
    if (document.fullscreenElement) return void document.exitFullscreen().catch(() => undefined);
    void target.requestFullscreen().then(
      () => {
        if (orientation === 'portrait' || orientation === 'landscape')
          screenOrientation?.lock?.(orientation).catch(() => undefined);
      },
      () => undefined,
    );
  });
  document.addEventListener('fullscreenchange', () => {
    const full = document.fullscreenElement === target;
    words.textContent = full ? 'Exit full screen' : 'Full screen';
    if (!full) {
      try {
        screenOrientation?.unlock?.();
      } catch {
        // nothing was locked
      }
    }
    onChange();
  });
  return button;
}
