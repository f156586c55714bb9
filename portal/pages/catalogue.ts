// The catalogue: search, categories with their counts (meta.categories), and the game cards.
import { premiumBadge } from '../layout.js';
import { api } from '../lib/api.js';
import { h, mount } from '../lib/dom.js';
import type { Game, GamesMeta } from '../lib/types.js';

export function gameCard(game: Game): HTMLElement {
  return h(
    'li',
    { class: 'card' },
    h(
      'a',
      { href: `/games/${encodeURIComponent(game.slug)}`, class: 'card-link' },
      h('img', { class: 'cover', src: game.cover_url, alt: '', loading: 'lazy', width: 320, height: 180 }),
      h('span', { class: 'card-body' }, h('span', { class: 'card-title' }, game.name), game.tagline ? h('span', { class: 'card-tagline' }, game.tagline) : null),
    ),
    h('p', { class: 'card-meta' }, h('span', { class: 'badge' }, game.category), game.requires_premium ? premiumBadge() : null, game.status === 'beta' ? h('span', { class: 'badge' }, 'Beta') : null),
  );
}

export async function cataloguePage(main: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  let q = params.get('q') ?? '';
  let category = params.get('category') ?? '';

  const search = h('input', { type: 'search', id: 'game-search', name: 'q', value: q, autocomplete: 'off', placeholder: 'Name, tag or author' });
  const searchForm = h('form', { role: 'search', class: 'search-row', 'aria-label': 'Games' }, h('label', { for: 'game-search' }, 'Search games'), h('div', { class: 'inline' }, search, h('button', { type: 'submit', class: 'button' }, 'Search')));
  const categories = h('nav', { class: 'chips', 'aria-label': 'Categories' });
  const count = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'cards', 'aria-label': 'Games' });
  mount(main, h('h1', null, 'Games'), searchForm, categories, count, list);

  let generation = 0;
  async function load(): Promise<void> {
    const mine = ++generation;
    const url = new URL(location.href);
    url.search = new URLSearchParams(Object.entries({ q, category }).filter(([, v]) => v)).toString();
    history.replaceState(null, '', url);
    const { data, meta } = await api<{ games: Game[] }, GamesMeta>('GET', '/v1/games', { query: { q, category } });
    if (mine !== generation) return; // a newer search answered first
    const total = Object.values(meta.categories).reduce((a, b) => a + b, 0);
    const chip = (value: string, label: string, n: number) => {
      const link = h('a', { href: value ? `/?category=${encodeURIComponent(value)}` : '/', class: 'chip', 'aria-current': value === category ? 'page' : undefined }, `${label} `, h('span', { class: 'count' }, `(${n})`));
      link.addEventListener('click', (event) => {
        event.preventDefault();
        category = value;
        void load();
      });
      return link;
    };
    mount(categories, chip('', 'All', total), Object.entries(meta.categories).sort(([a], [b]) => a.localeCompare(b)).map(([name, n]) => chip(name, name, n)));
    count.textContent = data.games.length === 1 ? '1 game' : `${data.games.length} games`;
    mount(list, data.games.length ? data.games.map(gameCard) : h('li', { class: 'empty' }, q ? `No game matches “${q}”.` : 'No games here yet.'));
  }

  let debounce: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      q = search.value.trim();
      void load();
    }, 250);
  });
  searchForm.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(debounce);
    q = search.value.trim();
    void load();
  });
  await load();
}
