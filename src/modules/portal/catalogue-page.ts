// The catalogue as served: the heading, search form, category chips, sort and every game card of the asked filter, in
// the markup the page script (portal/pages/catalogue.ts) builds, so that readers and crawlers without script see the
// games and the script takes the served cards over (it moves them, no second request, no flash).
import type { Config } from '../../config.js';
import type { Game, GameSort } from '../games/games.schemas.js';
import type { GameListing } from '../games/games.service.js';
import { escapeHtml, type PageOptions } from './html.js';
import { siteShareUrl } from './share-images.js';

export const CATALOGUE_SORTS: Array<[GameSort, string]> = [
  ['relevance', 'Best match'],
  ['popular', 'Most played'],
  ['new', 'Newest'],
  ['name', 'Name (A–Z)'],
];

export interface CatalogueFilter {
  q: string;
  category: string;
  sort: GameSort;
}

/** The filter of a catalogue URL, read as the page script reads it (unknown sorts fall back to the default). */
export function catalogueFilter(query: Record<string, unknown>): CatalogueFilter {
  const one = (value: unknown) =>
    typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
  const sort = one(query.sort);
  return {
    q: one(query.q).trim().slice(0, 100),
    category: one(query.category).trim().toLowerCase().slice(0, 64),
    sort: CATALOGUE_SORTS.some(([value]) => value === sort) ? (sort as GameSort) : 'relevance',
  };
}

/** `/` plus the parameters that differ from the defaults, in the page script's order. */
export function catalogueUrl(filter: Partial<CatalogueFilter>): string {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.category) params.set('category', filter.category);
  if (filter.sort && filter.sort !== 'relevance') params.set('sort', filter.sort);
  const search = params.toString();
  return search ? `/?${search}` : '/';
}

/** "arcade" → "Arcade", "board-games" → "Board games" (the page script's categoryLabel). */
export function categoryLabel(category: string): string {
  const words = category.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : category;
}

/** A game's card as the page script's gameCard (portal/pages/game-card.ts) builds it. */
export function gameCardHtml(game: Game): string {
  const badges = [
    `<span class="badge">${escapeHtml(categoryLabel(game.category))}</span>`,
    game.requires_premium ? '<span class="badge premium">Unlimited only</span>' : '',
    game.status === 'beta' ? '<span class="badge">Beta</span>' : '',
  ].join('');
  return [
    '<li class="card">',
    `<a href="/games/${escapeHtml(encodeURIComponent(game.slug))}" class="card-link">`,
    `<img class="cover" src="${escapeHtml(game.cover_url ?? '')}" alt="" loading="lazy" width="320" height="180">`,
    `<span class="card-body"><span class="card-title">${escapeHtml(game.name)}</span>`,
    game.tagline ? `<span class="card-tagline">${escapeHtml(game.tagline)}</span>` : '',
    '</span></a>',
    `<p class="card-meta">${badges}</p>`,
    '</li>',
  ].join('');
}

function chipsHtml(filter: CatalogueFilter, counts: Record<string, number>): string {
  const names = new Set(Object.keys(counts));
  if (filter.category) names.add(filter.category);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const chips: Array<[string, number]> = [
    ['', total],
    ...[...names].sort((a, b) => a.localeCompare(b)).map((name): [string, number] => [name, counts[name] ?? 0]),
  ];
  return chips
    .map(([value, n]) => {
      const current = value === filter.category ? ' aria-current="page"' : '';
      const label = value ? categoryLabel(value) : 'All';
      return `<a class="chip" data-category="${escapeHtml(value)}" href="${escapeHtml(catalogueUrl({ ...filter, category: value }))}"${current}>${escapeHtml(label)} <span class="count">(${n})</span></a>`;
    })
    .join('');
}

function countText(filter: CatalogueFilter, found: number): string {
  if (found) return found === 1 ? '1 game' : `${found} games`;
  const inCategory = filter.category ? ` in ${categoryLabel(filter.category)}` : '';
  if (filter.q) return `No games match “${filter.q}”${inCategory}.`;
  return filter.category ? `No games${inCategory} yet.` : 'No games here yet.';
}

/** The "Featured" row (portal/pages/shelves.ts builds the same), when an operator features a game. */
function featuredHtml(featured: Game[]): string {
  if (!featured.length) return '';
  return [
    '<section class="shelf" aria-labelledby="shelf-featured"><h2 id="shelf-featured">Featured</h2>',
    `<ul class="cards shelf-cards" aria-labelledby="shelf-featured">${featured.map(gameCardHtml).join('')}</ul>`,
    '</section>',
  ].join('');
}

/** The catalogue's <main>: what the page script shows once it has loaded the same filter. */
export function catalogueMain(filter: CatalogueFilter, listing: GameListing, featured: Game[] = []): string {
  const sorts = CATALOGUE_SORTS.map(
    ([value, label]) =>
      `<option value="${value}"${value === filter.sort ? ' selected' : ''}>${escapeHtml(label)}</option>`,
  ).join('');
  return [
    '<h1>Games</h1>',
    `<div class="shelves">${featuredHtml(featured)}</div>`,
    `<h2${featured.length ? '' : ' class="visually-hidden"'} id="all-games">All games</h2>`,
    '<form role="search" class="search-row" aria-label="Games" action="/" method="get">',
    '<label for="game-search">Search games</label>',
    `<div class="inline"><input type="search" id="game-search" name="q" value="${escapeHtml(filter.q)}" autocomplete="off" placeholder="Name, tag or author">`,
    '<button type="submit" class="button">Search</button></div>',
    '</form>',
    '<div class="catalogue-controls">',
    `<nav class="chips" aria-label="Categories">${chipsHtml(filter, listing.meta.categories)}</nav>`,
    `<div class="sort"><label for="game-sort">Sort by</label><select id="game-sort" name="sort">${sorts}</select></div>`,
    '</div>',
    `<p class="muted" role="status" aria-live="polite">${escapeHtml(countText(filter, listing.games.length))}</p>`,
    `<ul class="cards" aria-label="Games" aria-busy="false" data-served="${escapeHtml(catalogueUrl(filter))}">`,
    listing.games.map(gameCardHtml).join(''),
    '</ul>',
    '<div class="empty-state" hidden></div>',
  ].join('');
}

/**
 * The catalogue page: `/` and each category (`/?category=…`) have a title, description, canonical URL and link preview
 * (the site's share image); a search or another sort is canonically its category's page.
 */
export function cataloguePageOptions(
  config: Config,
  filter: CatalogueFilter,
  listing: GameListing,
  featured: Game[] = [],
): PageOptions {
  const label = filter.category ? categoryLabel(filter.category) : '';
  const title = label ? `${label} games` : 'Games';
  const names = listing.games
    .slice(0, 3)
    .map((game) => game.name)
    .join(', ');
  const description = label
    ? `Play ${label.toLowerCase()} games in your browser on Game Platform${names ? `: ${names} and more` : ''}.`
    : `Play HTML5 games in your browser: free every day, without limits with Unlimited${names ? `. ${names} and more` : ''}.`;
  return {
    page: 'catalogue',
    title,
    description,
    layout: 'wide',
    main: catalogueMain(filter, listing, featured),
    card: {
      url: `${config.public_url}${catalogueUrl({ category: filter.category })}`,
      image: siteShareUrl(config),
      imageAlt: 'Game Platform',
      type: 'website',
      large: true,
      imageSize: [1200, 630],
    },
  };
}
