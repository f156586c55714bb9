// The game page's screenshot gallery, its thumbs up and down, and "More like this" (docs/portal.md, "Game page").
import { ApiError, api } from '../lib/api.js';
import { h, mount } from '../lib/dom.js';
import { ensurePlayer } from '../lib/session.js';
import type { Game } from '../lib/types.js';
import { gameCard } from './game-card.js';

type Vote = 'up' | 'down';
type Rating = NonNullable<Game['rating']>;

/** How many related games the page asks for. */
export const RELATED_LIMIT = 6;

/**
 * The listing's screenshots: one large picture (a 16:9 box reserved by its width and height, the picture fitted
 * inside, so nothing moves as it loads), thumbnails that choose it, Previous/Next, and the arrow keys.
 */
export function gallerySection(game: Game): HTMLElement | null {
  const shots = game.screenshots ?? [];
  if (!shots.length) return null;
  const alt = (i: number) => `${game.name}, screenshot ${i + 1} of ${shots.length}`;
  let current = 0;
  const large = h('img', {
    class: 'gallery-picture',
    src: shots[0]!,
    alt: alt(0),
    width: 1280,
    height: 720,
    loading: 'lazy',
    decoding: 'async',
  });
  const position = h('p', { class: 'gallery-position', 'aria-live': 'polite' });
  const thumbs = shots.map((src, i) => {
    const button = h(
      'button',
      { type: 'button', class: 'gallery-thumb', 'aria-label': `Show screenshot ${i + 1} of ${shots.length}` },
      h('img', { src, alt: '', width: 160, height: 90, loading: 'lazy', decoding: 'async' }),
    );
    button.addEventListener('click', () => show(i));
    return button;
  });
  const previous = h('button', { type: 'button', class: 'button small' }, '← Previous');
  const next = h('button', { type: 'button', class: 'button small' }, 'Next →');
  previous.addEventListener('click', () => show(current - 1));
  next.addEventListener('click', () => show(current + 1));

  function show(i: number): void {
    current = (i + shots.length) % shots.length;
    large.src = shots[current]!;
    large.alt = alt(current);
    position.textContent = `Screenshot ${current + 1} of ${shots.length}`;
    thumbs.forEach((thumb, n) => {
      thumb.setAttribute('aria-current', n === current ? 'true' : 'false');
    });
  }
  show(0);

  const section = h(
    'section',
    { class: 'panel gallery', 'aria-labelledby': 'gallery-title' },
    h('h2', { id: 'gallery-title' }, 'Screenshots'),
    h('figure', { class: 'gallery-stage' }, large),
    shots.length > 1
      ? [
          h('nav', { class: 'pager', 'aria-label': 'Screenshots' }, previous, position, next),
          h(
            'ul',
            { class: 'gallery-thumbs' },
            thumbs.map((thumb) => h('li', null, thumb)),
          ),
        ]
      : null,
  );
  // Left and right arrows step through the pictures wherever the focus is inside the gallery.
  section.addEventListener('keydown', (event) => {
    if (shots.length < 2 || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    show(current + (event.key === 'ArrowLeft' ? -1 : 1));
    if (document.activeElement instanceof HTMLElement && thumbs.includes(document.activeElement as HTMLButtonElement))
      thumbs[current]!.focus();
  });
  return section;
}

/** "87% liked · 23 votes", or the count alone while the game has too few votes for a percentage. */
export function ratingText(rating: Rating): string {
  const votes = rating.up + rating.down;
  const count = `${votes} ${votes === 1 ? 'vote' : 'votes'}`;
  return rating.percent === null
    ? `Not enough votes for a rating yet (${count})`
    : `${rating.percent}% liked · ${count}`;
}

/**
 * Thumbs up and down (aria-pressed), one vote per player: pressing the pressed one takes the vote back. A visitor
 * votes as a new guest, as Play does.
 */
export function ratingControl(game: Game): HTMLElement {
  let rating: Rating = game.rating ?? { up: 0, down: 0, percent: null };
  let mine: Vote | null = game.my_rating ?? null;
  const summary = h('span', { class: 'rating-summary' });
  const status = h('span', { class: 'rating-status', role: 'status' });
  const button = (vote: Vote) =>
    h(
      'button',
      { type: 'button', class: 'button rating-button', 'data-vote': vote },
      vote === 'up' ? '👍 Like' : '👎 Dislike',
    );
  const up = button('up');
  const down = button('down');
  const render = () => {
    up.setAttribute('aria-pressed', String(mine === 'up'));
    down.setAttribute('aria-pressed', String(mine === 'down'));
    summary.textContent = ratingText(rating);
  };
  render();
  let busy = false;
  const path = `/v1/games/${encodeURIComponent(game.slug)}/rating`;
  const vote = async (value: Vote) => {
    if (busy) return;
    busy = true;
    status.textContent = '';
    try {
      if (!(await ensurePlayer())) {
        status.textContent = 'Log in to rate this game.';
        return;
      }
      const { data } =
        mine === value
          ? await api<{ rating: Rating; my_rating: Vote | null }>('DELETE', path)
          : await api<{ rating: Rating; my_rating: Vote | null }>('PUT', path, { body: { value } });
      rating = data.rating;
      mine = data.my_rating;
      render();
    } catch (error) {
      status.textContent =
        error instanceof ApiError && error.code === 'unauthenticated'
          ? 'Your session has ended: log in again to rate this game.'
          : `Rating not changed: ${(error as Error).message}`;
    } finally {
      busy = false;
    }
  };
  up.addEventListener('click', () => void vote('up'));
  down.addEventListener('click', () => void vote('down'));
  return h(
    'div',
    { class: 'rating', role: 'group', 'aria-label': 'Rate this game' },
    up,
    down,
    ' ',
    summary,
    ' ',
    status,
  );
}

/** "More like this": cards of related games (GET …/related), the section left out when there are none. */
export function relatedSection(game: Game): HTMLElement {
  const list = h('ul', { class: 'cards', 'aria-busy': 'true' });
  const section = h(
    'section',
    { class: 'related', 'aria-labelledby': 'related-title' },
    h('h2', { id: 'related-title' }, 'More like this'),
    list,
  );
  void api<{ games: Game[] }>('GET', `/v1/games/${encodeURIComponent(game.slug)}/related`, {
    query: { limit: RELATED_LIMIT },
  })
    .then(({ data }) => {
      list.removeAttribute('aria-busy');
      if (!data.games.length) section.hidden = true;
      else
        mount(
          list,
          data.games.map((related) => gameCard(related)),
        );
    })
    .catch(() => {
      list.removeAttribute('aria-busy');
      section.hidden = true;
    });
  return section;
}
