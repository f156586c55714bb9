// A game's card (catalogue, favourites) and how a category is named on chips and badges alike.
import { premiumBadge } from '../layout.js';
import { h } from '../lib/dom.js';
import type { Game } from '../lib/types.js';

/** "arcade" → "Arcade", "board-games" → "Board games": the one spelling of a category on chips and badges. */
export function categoryLabel(category: string): string {
  const words = category.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : category;
}

/** The badges under a card: category, Unlimited only, Beta. */
export function gameBadges(game: Game): HTMLElement {
  return h(
    'p',
    { class: 'card-meta' },
    h('span', { class: 'badge' }, categoryLabel(game.category)),
    game.requires_premium ? premiumBadge() : null,
    game.status === 'beta' ? h('span', { class: 'badge' }, 'Beta') : null,
  );
}

export function gameCard(game: Game, ...extra: Array<Node | null>): HTMLElement {
  return h(
    'li',
    { class: 'card' },
    h(
      'a',
      { href: `/games/${encodeURIComponent(game.slug)}`, class: 'card-link' },
      h('img', { class: 'cover', src: game.cover_url, alt: '', loading: 'lazy', width: 320, height: 180 }),
      h(
        'span',
        { class: 'card-body' },
        h('span', { class: 'card-title' }, game.name),
        game.tagline ? h('span', { class: 'card-tagline' }, game.tagline) : null,
      ),
    ),
    ...extra,
    gameBadges(game),
  );
}

/** How many placeholder cards stand in for the catalogue while it loads (the server's first paint draws as many). */
export const SKELETON_CARDS = 8;

/** A placeholder card: the shape of a game's card, its cover and lines shimmering (still when the player asks for reduced motion); kept in step with
 * the server's copy (src/modules/portal/html.ts). */
export function skeletonCard(): HTMLElement {
  return h(
    'li',
    { class: 'card skeleton', 'aria-hidden': 'true' },
    h('span', { class: 'cover skeleton-block' }),
    h(
      'span',
      { class: 'card-body' },
      h('span', { class: 'skeleton-line' }),
      h('span', { class: 'skeleton-line short' }),
    ),
    h('span', { class: 'card-meta' }, h('span', { class: 'skeleton-line chip' })),
  );
}
