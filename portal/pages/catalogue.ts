// The catalogue: the player's own rows (continue playing, favourites), search, categories with their counts
// (meta.categories), a sort, and the game cards. The filter lives in the URL (/?q=…&category=…&sort=…): each change a
// player makes is a history entry of its own, so Back returns to the previous filter and a link shares the view.
import { api } from '../lib/api.js';
import { h, mount } from '../lib/dom.js';
import { me } from '../lib/session.js';
import type { Game, GamesMeta } from '../lib/types.js';
import { categoryLabel, gameCard, SKELETON_CARDS, skeletonCard } from './game-card.js';
import { loadFeatured, renderHomeShelves } from './shelves.js';

export { gameCard } from './game-card.js';

// `relevance` (the API's default) ranks a search by match and lists the catalogue most played first.
const SORTS = [
  ['relevance', 'Best match'],
  ['popular', 'Most played'],
  ['new', 'Newest'],
  ['name', 'Name (A–Z)'],
] as const;
type Sort = (typeof SORTS)[number][0];
const DEFAULT_SORT: Sort = 'relevance';

interface Filter {
  q: string;
  category: string;
  sort: Sort;
}

/** Typing pauses this long before the list follows. */
const TYPING_PAUSE_MS = 300;

function filterFromUrl(): Filter {
  const params = new URLSearchParams(location.search);
  const sort = params.get('sort');
  return {
    q: params.get('q')?.trim() ?? '',
    category: params.get('category')?.trim().toLowerCase() ?? '',
    sort: SORTS.some(([value]) => value === sort) ? (sort as Sort) : DEFAULT_SORT,
  };
}

/** The page's address for a filter: `/` plus the parameters that differ from the defaults, always in one order. */
function urlOf(filter: Filter): string {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.category) params.set('category', filter.category);
  if (filter.sort !== DEFAULT_SORT) params.set('sort', filter.sort);
  const search = params.toString();
  return search ? `/?${search}` : '/';
}

export async function cataloguePage(main: HTMLElement): Promise<void> {
  let filter = filterFromUrl();
  history.replaceState(null, '', urlOf(filter));
  // The server sent this filter's cards, chips and count (src/modules/portal/catalogue-page.ts): they are taken over.
  const servedList = main.querySelector<HTMLUListElement>('ul.cards[data-served]');
  const served = servedList?.dataset.served === urlOf(filter) ? servedList : null;
  const servedCounts: Record<string, number> = {};
  for (const link of main.querySelectorAll<HTMLAnchorElement>('nav.chips a.chip[data-category]')) {
    const value = link.dataset.category;
    if (value) servedCounts[value] = Number(/\((\d+)\)/.exec(link.textContent ?? '')?.[1] ?? 0);
  }
  const servedStatus = main.querySelector('p[role="status"]')?.textContent ?? '';

  const search = h('input', {
    type: 'search',
    id: 'game-search',
    name: 'q',
    value: filter.q,
    autocomplete: 'off',
    placeholder: 'Name, tag or author',
  });
  const searchForm = h(
    'form',
    { role: 'search', class: 'search-row', 'aria-label': 'Games' },
    h('label', { for: 'game-search' }, 'Search games'),
    h('div', { class: 'inline' }, search, h('button', { type: 'submit', class: 'button' }, 'Search')),
  );
  const sortSelect = h(
    'select',
    { id: 'game-sort', name: 'sort' },
    SORTS.map(([value, label]) => h('option', { value, selected: value === filter.sort }, label)),
  );
  sortSelect.value = filter.sort;
  const categories = h('nav', { class: 'chips', 'aria-label': 'Categories' });
  const count = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' }, 'Loading games…');
  const list = h('ul', { class: 'cards', 'aria-label': 'Games', 'aria-busy': 'true' });
  const empty = h('div', { class: 'empty-state', hidden: true });
  const shelves = h('div', { class: 'shelves' });
  const allTitle = h('h2', { class: 'visually-hidden', id: 'all-games' }, 'All games');
  // The served "Featured" row stays until the rows are loaded (no flash).
  const servedShelves = main.querySelector('.shelves');
  if (servedShelves?.children.length) {
    shelves.append(...servedShelves.children);
    allTitle.classList.remove('visually-hidden');
  }
  if (served) {
    list.append(...served.children);
    list.setAttribute('aria-busy', 'false');
    count.textContent = servedStatus;
  }
  mount(
    main,
    h('h1', null, 'Games'),
    shelves,
    allTitle,
    searchForm,
    h(
      'div',
      { class: 'catalogue-controls' },
      categories,
      h('div', { class: 'sort' }, h('label', { for: 'game-sort' }, 'Sort by'), sortSelect),
    ),
    count,
    list,
    empty,
  );

  // The featured games, then a logged-in player's rows, above the catalogue; they load beside it, never before it.
  // A page served with its cards was served with the featured row too: the script keeps that row, asking nothing.
  const servedFeatured = served ? shelves.querySelector<HTMLElement>('section.shelf') : null;
  const featured = served ? Promise.resolve(servedFeatured) : loadFeatured();
  void me()
    .catch(() => null)
    .then(async (who) => {
      const shown = await renderHomeShelves(shelves, await featured, who !== null && who !== undefined);
      allTitle.classList.toggle('visually-hidden', !shown);
    });

  // Every category the catalogue has (counted without q), so that a search with few or no matches keeps its chips.
  let everyCategory: Promise<string[]> | null = null;
  const allCategories = () =>
    (everyCategory ??= api<{ games: Game[] }, GamesMeta>('GET', '/v1/games').then(
      ({ meta }) => Object.keys(meta.categories),
      () => [],
    ));

  let generation = 0;
  async function load(): Promise<void> {
    const mine = ++generation;
    const shown = filter;
    list.setAttribute('aria-busy', 'true');
    count.textContent = 'Loading games…';
    // The cards' shapes while the first list loads (a new filter keeps the cards shown until it answers).
    if (!list.querySelector('.card:not(.skeleton)'))
      mount(
        list,
        Array.from({ length: SKELETON_CARDS }, () => skeletonCard()),
      );
    try {
      const [{ data, meta }, known] = await Promise.all([
        api<{ games: Game[] }, GamesMeta>('GET', '/v1/games', {
          query: { q: shown.q, category: shown.category, sort: shown.sort === DEFAULT_SORT ? undefined : shown.sort },
        }),
        shown.q ? allCategories() : Promise.resolve([]),
      ]);
      if (mine !== generation) return; // a newer filter answered first
      if (!shown.q) everyCategory ??= Promise.resolve(Object.keys(meta.categories));
      renderChips(shown, meta.categories, known);
      count.textContent = data.games.length === 1 ? '1 game' : `${data.games.length} games`;
      mount(
        list,
        data.games.map((game) => gameCard(game)),
      );
      renderEmpty(shown, data.games.length, meta.categories, known);
    } catch (error) {
      if (mine !== generation) return;
      count.textContent = '';
      mount(list);
      const retry = h('button', { type: 'button', class: 'button' }, 'Try again');
      retry.addEventListener('click', () => void load());
      mount(empty, h('p', { role: 'alert' }, `The games could not be loaded: ${(error as Error).message}`), retry);
      empty.hidden = false;
    } finally {
      if (mine === generation) list.setAttribute('aria-busy', 'false');
    }
  }

  /**
   * The chips: every category (those of the whole catalogue too, while searching) with the count for the current q.
   * They are updated in place, never replaced: a chip pressed while an answer arrives is still there to be released
   * (a click pressed on one element and released on its successor is no click), and a focused chip keeps the focus.
   */
  const chips = new Map<string, HTMLAnchorElement>();
  function renderChips(shown: Filter, counts: Record<string, number>, known: string[]): void {
    const names = new Set([...known, ...Object.keys(counts)]);
    if (shown.category) names.add(shown.category);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const wanted: [string, number][] = [
      ['', total],
      ...[...names].sort((a, b) => a.localeCompare(b)).map((name): [string, number] => [name, counts[name] ?? 0]),
    ];
    const keep = new Set(wanted.map(([value]) => value));
    for (const [value, link] of chips) {
      if (keep.has(value)) continue;
      link.remove();
      chips.delete(value);
    }
    wanted.forEach(([value, n], i) => {
      const link = chips.get(value) ?? chip(value, value ? categoryLabel(value) : 'All');
      chips.set(value, link);
      link.href = urlOf({ ...shown, category: value });
      if (value === shown.category) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
      link.querySelector('.count')!.textContent = `(${n})`;
      const at = categories.children[i];
      if (at !== link) categories.insertBefore(link, at ?? null);
    });
  }

  function chip(value: string, label: string): HTMLAnchorElement {
    const link = h('a', { class: 'chip', 'data-category': value }, `${label} `, h('span', { class: 'count' }));
    link.addEventListener('click', (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return; // a new tab or window: the link's own job
      event.preventDefault();
      change({ category: value });
    });
    // Space presses a chip as Enter does (links answer only Enter by themselves).
    link.addEventListener('keydown', (event) => {
      if (event.key !== ' ') return;
      event.preventDefault();
      link.click();
    });
    return link;
  }

  function renderEmpty(shown: Filter, found: number, counts: Record<string, number>, known: string[]): void {
    // The search names a category ("arcade"): q searches the games' text (docs/api.md, "Catalogue decisions"), so offer the category itself.
    const wanted = shown.q.trim().toLowerCase();
    const named =
      wanted && shown.category.toLowerCase() !== wanted
        ? known.find((name) => name.toLowerCase() === wanted || categoryLabel(name).toLowerCase() === wanted)
        : undefined;
    const categoryLink = named
      ? (() => {
          const b = h('button', { type: 'button', class: 'button' }, `Show the ${categoryLabel(named)} category`);
          b.addEventListener('click', () => {
            change({ q: '', category: named });
            search.focus();
          });
          return b;
        })()
      : null;
    if (found) {
      empty.hidden = !categoryLink;
      mount(empty, categoryLink ? h('p', { class: 'actions' }, categoryLink) : null);
      return;
    }
    const anywhere = Object.values(counts).reduce((a, b) => a + b, 0);
    const inCategory = shown.category ? ` in ${categoryLabel(shown.category)}` : '';
    // The button goes away with the empty state: the search field takes the focus, not <body>.
    const button = (label: string, next: Partial<Filter>) => {
      const b = h('button', { type: 'button', class: 'button' }, label);
      b.addEventListener('click', () => {
        change(next);
        search.focus();
      });
      return b;
    };
    // The status line says it (screen readers hear it); the empty state offers the ways out.
    if (shown.q) {
      count.textContent = `No games match “${shown.q}”${inCategory}.`;
      mount(
        empty,
        h(
          'p',
          { class: 'actions' },
          categoryLink,
          button('Clear search', { q: '' }),
          shown.category && anywhere
            ? button(`Show all ${anywhere === 1 ? '1 match' : `${anywhere} matches`}`, { category: '' })
            : null,
        ),
      );
    } else {
      count.textContent = shown.category ? `No games${inCategory} yet.` : 'No games here yet.';
      mount(empty, shown.category ? h('p', { class: 'actions' }, button('Show all games', { category: '' })) : null);
    }
    empty.hidden = false;
  }

  // The player's changes push a history entry; the search while typing pushes one for the first pause and then
  // replaces it, so Back skips the letters typed and returns to what was shown before the search.
  let typingEntry = false;
  let debounce: ReturnType<typeof setTimeout> | undefined;

  function change(next: Partial<Filter>, mode: 'push' | 'replace' = 'push'): void {
    clearTimeout(debounce);
    typingEntry = false;
    const target = { ...filter, q: search.value.trim(), ...next };
    if (next.q !== undefined) search.value = next.q;
    const url = urlOf(target);
    if (url === urlOf(filter)) return;
    if (mode === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
    filter = target;
    void load();
  }

  search.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      if (search.value.trim() === filter.q) return;
      change({}, typingEntry ? 'replace' : 'push');
      typingEntry = true;
    }, TYPING_PAUSE_MS);
  });
  search.addEventListener('blur', () => (typingEntry = false));
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    change({}, typingEntry ? 'replace' : 'push');
  });
  sortSelect.addEventListener('change', () => change({ sort: sortSelect.value as Sort }));
  window.addEventListener('popstate', () => {
    clearTimeout(debounce);
    typingEntry = false;
    filter = filterFromUrl();
    search.value = filter.q;
    sortSelect.value = filter.sort;
    void load();
  });

  // Served cards of the unsearched catalogue are the whole answer: the chips take the served counts, no request.
  if (served && !filter.q && list.children.length > 0) {
    everyCategory = Promise.resolve(Object.keys(servedCounts));
    renderChips(filter, servedCounts, []);
    return;
  }
  await load();
}
