// The player's own games: "Continue playing" (GET /v1/me/recent, with the last save) and "Your favourites"
// (GET /v1/me/favorites), as rows on the home page and as a short list on the account page.
import { formatTimestamp } from '../layout.js';
import { api } from '../lib/api.js';
import { h, mount, uid } from '../lib/dom.js';
import type { Game } from '../lib/types.js';
import { gameCard } from './game-card.js';

export interface RecentGame {
  game: Game;
  last_played_at: string;
  last_save: { slot: number; label: string | null; updated_at: string } | null;
}

export interface Shelves {
  recent: RecentGame[];
  favorites: Game[];
}

export async function loadShelves(): Promise<Shelves> {
  const [recent, favorites] = await Promise.all([
    api<{ recent: RecentGame[] }>('GET', '/v1/me/recent', { query: { limit: 12 } }),
    api<{ games: Game[] }>('GET', '/v1/me/favorites'),
  ]);
  return { recent: recent.data.recent, favorites: favorites.data.games };
}

const playHref = (game: Game) => `/play/${encodeURIComponent(game.slug)}`;
/** Continue: the game, told which save to go on from (the shell gives it to the game's init()). */
const continueHref = (entry: RecentGame) =>
  entry.last_save ? `${playHref(entry.game)}?continue=${entry.last_save.slot}` : playHref(entry.game);

/** "Level 3, saved 23 Nov 2026, 10:30" or "Slot 1, saved …" (slots count from 1 for people). */
export function saveText(save: NonNullable<RecentGame['last_save']>): string {
  return `${save.label?.trim() || `Slot ${save.slot + 1}`}, saved ${formatTimestamp(save.updated_at, true)}`;
}

function continueCard(entry: RecentGame): HTMLElement {
  const { game } = entry;
  return gameCard(
    game,
    h(
      'div',
      { class: 'card-continue' },
      h('p', { class: 'card-note' }, `Played ${formatTimestamp(entry.last_played_at, true)}`),
      entry.last_save ? h('p', { class: 'card-note' }, `Last save: ${saveText(entry.last_save)}`) : null,
      h(
        'a',
        { class: 'button primary small', href: continueHref(entry), 'aria-label': `Continue ${game.name}` },
        'Continue',
      ),
    ),
  );
}

function shelf(title: string, cards: HTMLElement[]): HTMLElement {
  const id = uid('shelf');
  return h(
    'section',
    { class: 'shelf', 'aria-labelledby': id },
    h('h2', { id }, title),
    h('ul', { class: 'cards shelf-cards', 'aria-labelledby': id }, cards),
  );
}

/** The games operators feature on the home page (GET /v1/games?featured=true); none when it fails. */
export async function loadFeatured(): Promise<Game[]> {
  return api<{ games: Game[] }>('GET', '/v1/games', { query: { featured: 'true' } }).then(
    ({ data }) => data.games,
    () => [],
  );
}

/**
 * The home page's rows: "Featured" first when an operator features a game, then, for a logged-in player, their own;
 * empty rows are left out. Errors leave the rows out too: the catalogue matters more.
 */
export async function renderHomeShelves(
  container: HTMLElement,
  /** the featured games, or the row the page was served with (null: none) */
  featured: Game[] | HTMLElement | null,
  signedIn: boolean,
): Promise<boolean> {
  const none = { recent: [], favorites: [] } as Shelves;
  const { recent, favorites } = signedIn ? await loadShelves().catch(() => none) : none;
  const featuredRow = Array.isArray(featured)
    ? featured.length
      ? shelf(
          'Featured',
          featured.map((g) => gameCard(g)),
        )
      : null
    : featured;
  mount(
    container,
    featuredRow,
    recent.length ? shelf('Continue playing', recent.map(continueCard)) : null,
    favorites.length
      ? shelf(
          'Your favourites',
          favorites.map((g) => gameCard(g)),
        )
      : null,
  );
  return featuredRow !== null || recent.length > 0 || favorites.length > 0;
}

/** The account page's "Your games": the recently played games (with Continue) and the favourites, as links. */
export function yourGamesSection(): HTMLElement {
  const id = uid('section');
  const body = h('div', { 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading your games…'));
  const gameLink = (game: Game) => h('a', { href: `/games/${encodeURIComponent(game.slug)}` }, game.name);
  void loadShelves().then(
    ({ recent, favorites }) => {
      const recentId = uid('recent');
      const favId = uid('favourites');
      mount(
        body,
        h('h3', { id: recentId }, 'Recently played'),
        recent.length
          ? h(
              'ul',
              { class: 'your-games', 'aria-labelledby': recentId },
              recent.map((e) =>
                h(
                  'li',
                  null,
                  gameLink(e.game),
                  ' ',
                  h(
                    'span',
                    { class: 'muted' },
                    e.last_save ? `· ${saveText(e.last_save)}` : `· played ${formatTimestamp(e.last_played_at, true)}`,
                  ),
                  ' ',
                  h(
                    'a',
                    { class: 'button small', href: continueHref(e), 'aria-label': `Continue ${e.game.name}` },
                    'Continue',
                  ),
                ),
              ),
            )
          : h('p', { class: 'empty' }, 'No games played yet.'),
        h('h3', { id: favId }, 'Favourites'),
        favorites.length
          ? h(
              'ul',
              { class: 'your-games', 'aria-labelledby': favId },
              favorites.map((g) => h('li', null, gameLink(g))),
            )
          : h(
              'p',
              { class: 'empty' },
              'No favourites yet: “Add to favourites” on a game’s page puts it here and on the home page.',
            ),
      );
      body.removeAttribute('aria-busy');
    },
    (error: unknown) => {
      mount(body, h('p', { class: 'form-error', role: 'alert' }, (error as Error).message));
      body.removeAttribute('aria-busy');
    },
  );
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, 'Your games'), body);
}
