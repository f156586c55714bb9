// What a game's and a player's page carry before any script runs: <title>, description, canonical URL, Open Graph and
// Twitter card, and a heading, description and picture in <main>, with a game's "More like this" cards (the page script
// then replaces them with the full page).
import type { Config } from '../../config.js';
import { avatarUrl } from '../accounts/avatar-url.js';
import { gameAssetUrl } from '../games/game-origin.js';
import type { Game } from '../games/games.schemas.js';
import { mediaUrl } from '../games/listing-media.service.js';
import { gameCardHtml } from './catalogue-page.js';
import { escapeHtml, type PageOptions } from './html.js';
import type { PageGame, PagePlayer } from './portal.repository.js';
import { previewUrl, siteShareUrl } from './share-images.js';

/** Link previews cut descriptions at about 200 characters: cut at a word, with an ellipsis. */
export function shortText(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:!?-]+$/, '')}…`;
}

const STATUS = '<p class="loading" role="status">Loading…</p>';

const coverOf = (config: Config, game: PageGame): string =>
  game.cover_key ? mediaUrl(config, game.cover_key) : gameAssetUrl(config, game.slug, game.files_dir, game.cover);

/**
 * The play view's first paint: the game's cover and name while the shell starts a session and the game loads
 * (portal/shell/play-view.ts shows the same over the stage until the game's frame has loaded).
 */
export function playLoadingHtml(config: Config, game: PageGame): string {
  return [
    '<section class="play-loading">',
    `<img class="cover large" src="${escapeHtml(coverOf(config, game))}" alt="" width="640" height="360">`,
    `<h1>${escapeHtml(game.name)}</h1>`,
    '<p class="muted" role="status">Loading the game…</p>',
    '<noscript><p class="notice">Playing needs JavaScript.</p></noscript>',
    '</section>',
  ].join('');
}

/** "More like this" (docs/portal.md, "Game page"): the related games' cards, or nothing when there are none. */
function relatedHtml(related: readonly Game[]): string {
  if (!related.length) return '';
  return [
    '<section class="related" aria-labelledby="related-title">',
    '<h2 id="related-title">More like this</h2>',
    `<ul class="cards">${related.map(gameCardHtml).join('')}</ul>`,
    '</section>',
  ].join('');
}

export function gamePageOptions(config: Config, game: PageGame, related: readonly Game[] = []): PageOptions {
  const url = `${config.public_url}/games/${encodeURIComponent(game.slug)}`;
  const cover = coverOf(config, game);
  const description = shortText(
    game.tagline || game.description || `Play ${game.name} in your browser on Game Platform.`,
  );
  const alt = `Cover of ${game.name}`;
  const main = [
    '<section class="game-hero">',
    `<img class="cover large" src="${escapeHtml(cover)}" alt="${escapeHtml(alt)}" width="640" height="360">`,
    '<div class="game-intro">',
    `<h1>${escapeHtml(game.name)}</h1>`,
    game.tagline ? `<p class="tagline">${escapeHtml(game.tagline)}</p>` : '',
    game.description ? `<p class="description">${escapeHtml(game.description)}</p>` : '',
    '</div>',
    '</section>',
    STATUS,
    relatedHtml(related),
  ].join('');
  return {
    page: 'game',
    title: game.name,
    description,
    main,
    data: { slug: game.slug },
    card: { url, image: previewUrl(config, game), imageAlt: alt, type: 'website', large: true, imageSize: [1200, 630] },
  };
}

export function profilePageOptions(config: Config, player: PagePlayer): PageOptions {
  const url = `${config.public_url}/u/${encodeURIComponent(player.username)}`;
  const picture = avatarUrl(config, player);
  const description = shortText(
    player.bio || `${player.display_name} (@${player.username}) on Game Platform: profile and best scores.`,
  );
  const main = [
    '<section class="profile-head">',
    `<img class="avatar" src="${escapeHtml(picture)}" alt="" width="96" height="96">`,
    '<div>',
    `<h1>${escapeHtml(player.display_name)}</h1>`,
    `<p class="muted">@${escapeHtml(player.username)}</p>`,
    player.bio ? `<p class="bio">${escapeHtml(player.bio)}</p>` : '',
    '</div>',
    '</section>',
    STATUS,
  ].join('');
  return {
    page: 'profile',
    title: player.display_name,
    description,
    main,
    data: { username: player.username },
    // An uploaded avatar (a square WebP) is the card's picture; the initials avatar is SVG, which previews ignore: the
    // site's share image stands in.
    card: player.avatar_key
      ? { url, image: picture, imageAlt: `Avatar of ${player.display_name}`, type: 'profile', large: false }
      : {
          url,
          image: siteShareUrl(config),
          imageAlt: 'Game Platform',
          type: 'profile',
          large: false,
          imageSize: [1200, 630],
        },
  };
}
