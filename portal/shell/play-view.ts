// The play view: one slim bar (the game's name, the time left, full screen, quit) and below it the stage, which the
// game's frame fills edge to edge. The site's header and footer step aside while a game runs (body.playing); the
// frame follows the game's `orientation` (styles in play-view.css), and a notice covers it when another tab took over
// or the player was signed out.
import { h } from '../lib/dom.js';
import type { Game } from '../lib/types.js';
import { Countdown } from './countdown.js';
import { canGoFullScreen, enterFullScreen, fullScreenButton } from './full-screen.js';
import { rotateHint } from './orientation.js';

export type TakenOverBy = 'tab' | 'elsewhere';

export class PlayView {
  readonly element: HTMLElement;
  /** where the shell puts the game's frame */
  readonly stage: HTMLElement;
  readonly countdown = new Countdown();
  private notice: HTMLElement | null = null;

  constructor(
    private readonly game: Pick<Game, 'slug' | 'name' | 'orientation'> & Partial<Pick<Game, 'cover_url'>>,
    unlimited: boolean,
    handlers: { quit: () => void; fullScreenChanged: () => void },
    /** shown instead of the time left (a preview says what it is) */
    badge?: string,
  ) {
    const quit = h('button', { type: 'button', class: 'button small quit' }, 'Quit');
    quit.addEventListener('click', handlers.quit);
    this.stage = h('div', { class: `stage orientation-${game.orientation}` });
    this.element = h('section', { class: 'shell', 'aria-label': `Playing ${game.name}` });
    const full = fullScreenButton(this.element, game.orientation, handlers.fullScreenChanged);
    if (game.orientation === 'portrait' || game.orientation === 'landscape') {
      const shell = this.element;
      const goFull = canGoFullScreen(shell) ? () => enterFullScreen(shell, game.orientation) : null;
      this.stage.append(rotateHint(this.stage, game.name, game.orientation, goFull));
    }
    const bar = h(
      'div',
      { class: 'shell-bar' },
      h('h1', { class: 'shell-title' }, game.name),
      badge
        ? h('span', { class: 'badge preview' }, badge)
        : unlimited
          ? h('span', { class: 'badge premium' }, 'Unlimited')
          : this.countdown.element,
      h('div', { class: 'shell-actions' }, full, quit),
    );
    this.element.append(bar, this.stage);
    if (game.cover_url) {
      // The game's cover and name over the stage until its frame has loaded (gameLoaded).
      this.loading = h(
        'div',
        { class: 'stage-loading', role: 'status' },
        h('img', { class: 'cover large', src: game.cover_url, alt: '', width: 640, height: 360 }),
        h('p', null, `Loading ${game.name}…`),
      );
      this.stage.append(this.loading);
    }
  }

  private loading: HTMLElement | null = null;

  /** The game's frame has loaded: its own screen takes over from the cover. */
  gameLoaded(): void {
    this.loading?.remove();
    this.loading = null;
  }

  /** The site's header and footer go while the game is on screen, and come back for any other screen of the shell. */
  static setPlaying(playing: boolean): void {
    document.body.classList.toggle('playing', playing);
  }

  /** Covers the paused game: it is being played elsewhere; `playHere` takes it back. */
  showTakenOver(by: TakenOverBy, playHere: () => void): void {
    this.hideNotice();
    const button = h('button', { type: 'button', class: 'button primary' }, 'Play here');
    button.addEventListener('click', () => {
      button.disabled = true;
      playHere();
    });
    const where = by === 'tab' ? 'in another tab' : 'in another tab or on another device';
    this.notice = h(
      'section',
      {
        class: 'stage-notice',
        'data-screen': 'replaced',
        role: 'alertdialog',
        'aria-labelledby': 'replaced-title',
        'aria-describedby': 'replaced-text',
      },
      h('h2', { id: 'replaced-title', tabindex: '-1' }, `Playing ${where}`),
      h(
        'p',
        { id: 'replaced-text' },
        `${this.game.name} is open ${where}, so it stopped here: one game plays in one place at a time, and its time counts once.`,
      ),
      h(
        'div',
        { class: 'actions' },
        button,
        h('a', { class: 'button', href: `/games/${encodeURIComponent(this.game.slug)}` }, `Back to ${this.game.name}`),
      ),
    );
    this.stage.append(this.notice);
    button.focus();
  }

  /**
   * Covers the paused game: the player's sign-in ended. `form` logs in here, without leaving the page, so the game and
   * what it holds stay; creating an account instead opens in a new tab.
   */
  showSignedOut(form: HTMLElement): void {
    this.hideNotice();
    const next = `?next=${encodeURIComponent(location.pathname + location.search)}`;
    this.notice = h(
      'section',
      {
        class: 'stage-notice signed-out',
        'data-screen': 'signed-out',
        role: 'alertdialog',
        'aria-labelledby': 'signed-out-title',
        'aria-describedby': 'signed-out-text',
      },
      h('h2', { id: 'signed-out-title', tabindex: '-1' }, 'You were signed out'),
      h(
        'p',
        { id: 'signed-out-text' },
        `Log in to keep playing ${this.game.name}. The game is paused and keeps your progress; a score it sent meanwhile is sent after you log in.`,
      ),
      form,
      h(
        'p',
        null,
        h('a', { href: `/register${next}`, target: '_blank', rel: 'noopener' }, 'Create an account'),
        ' (opens in a new tab)',
      ),
    );
    this.stage.append(this.notice);
    (this.notice.querySelector('input') as HTMLInputElement | null)?.focus();
  }

  hideTakenOver(): void {
    this.hideNotice();
  }

  hideNotice(): void {
    this.notice?.remove();
    this.notice = null;
  }
}
