// The HTML shell every portal page shares: header, main landmark and the bundle. Pages fill <main> in the browser from the API.
import type { Manifest } from './web-root.js';

/** The portal's colour (the icon's background): theme-color and the web app manifest. */
export const THEME_COLOR = '#4338ca';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * Portal pages: scripts and styles from this origin only, no inline script or style; frames only from the games' origins
 * (`games`, a CSP source such as `http://*.games.localhost:8080`), which also serve the covers; images also from `assets`
 * (the origin of assets_url, when set).
 */
export function portalCsp(games: string, assets = ''): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob: ${games}${assets ? ` ${assets}` : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${games}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface PageOptions {
  /** which page script runs (body data-page) */
  page: string;
  title: string;
  description?: string;
  /** values handed to the page script as data-* attributes on <body> */
  data?: Record<string, string>;
  /** server-rendered content of <main> (already HTML) */
  main?: string;
  /** a class for <main> */
  layout?: 'narrow' | 'wide' | 'play';
  /** the request carried no session cookie: the page knows nobody is logged in without asking /v1/me */
  signedOut?: boolean;
  /** the page's canonical URL and its link preview (Open Graph, Twitter card) */
  card?: PageCard;
  /**
   * Who the session cookie names (null: nobody): the header is served as the script draws it (portal/layout.ts), so a
   * slow network never shows the wrong one first. `here` is the page's path and query, for the links that come back.
   */
  account?: { player: HeaderPlayer | null | typeof UNKNOWN_PLAYER; here: string };
}

/**
 * The session's player could not be looked up (the database out of reach): the header is served empty and the page
 * script fills it from /v1/me (docs/portal.md, "The portal").
 */
export const UNKNOWN_PLAYER = 'unknown';

/** What the header shows of the logged-in player or guest. */
export interface HeaderPlayer {
  display_name: string;
  avatar_url: string;
  guest: boolean;
}

/** The header's account area as portal/layout.ts (showAccount) and portal/pages/guest.ts (guestNav) draw it. */
export function accountNav(player: HeaderPlayer | null | typeof UNKNOWN_PLAYER, here: string): string {
  if (player === UNKNOWN_PLAYER) return '';
  const path = here.split('?')[0] ?? '/';
  if (!player) {
    const next =
      path === '/' || ['/login', '/register', '/logout'].includes(path) ? '' : `?next=${encodeURIComponent(here)}`;
    return `<a href="/login${escapeHtml(next)}">Log in</a> <a class="button small" href="/register">Register</a>`;
  }
  const avatar = `<img class="avatar" src="${escapeHtml(player.avatar_url)}" alt="" width="28" height="28" loading="lazy">`;
  const name = escapeHtml(player.display_name);
  if (player.guest) {
    const back = escapeHtml(`?next=${encodeURIComponent(here)}`);
    return (
      `<a href="/playtime" class="hide-narrow">Playtime</a>` +
      `<span class="account-link guest-name" title="You are playing as a guest">${avatar}<span class="account-name">${name} (guest)</span></span>` +
      `<a href="/login${back}">Log in</a><a class="button small" href="/register${back}">Create account</a>`
    );
  }
  return (
    `<a href="/playtime">Playtime</a>` +
    `<a href="/account" class="account-link" aria-label="Account settings for ${name}">${avatar}<span class="account-name">${name}</span></a>` +
    `<button type="button" class="link-button">Log out</button>`
  );
}

/** The play view's quiet bar for a guest, as portal/pages/guest.ts (showGuestBar) draws it; the script wires "Not now". */
function guestBar(player: HeaderPlayer, here: string): string {
  const back = escapeHtml(`?next=${encodeURIComponent(here)}`);
  return `<aside class="guest-bar" aria-label="Your guest progress"><p><span class="hide-narrow">Playing as ${escapeHtml(player.display_name)}. </span><a class="guest-bar-register" href="/register${back}">Create a free account</a> to keep your progress on every device. <a href="/login${back}">Log in</a> <button type="button" class="link-button">Not now</button></p></aside>\n`;
}

/** What a shared link shows: absolute URLs; `large` for a wide picture (a game's cover), else a square (an avatar). */
export interface PageCard {
  url: string;
  image: string;
  imageAlt: string;
  type: 'website' | 'profile';
  large: boolean;
  /** the picture's width and height, when known (PNG previews: 1200×630) */
  imageSize?: [number, number];
}

const DEFAULT_DESCRIPTION = 'Play HTML5 games in your browser: free every day, without limits with Unlimited.';

/** <link rel=canonical>, Open Graph and Twitter card tags; every value escaped. */
function cardTags(title: string, description: string, card: PageCard): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}">`;
  return [
    `<link rel="canonical" href="${escapeHtml(card.url)}">`,
    meta('property', 'og:site_name', 'Game Platform'),
    meta('property', 'og:type', card.type),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', card.url),
    meta('property', 'og:image', card.image),
    ...(card.imageSize
      ? [
          meta('property', 'og:image:type', 'image/png'),
          meta('property', 'og:image:width', String(card.imageSize[0])),
          meta('property', 'og:image:height', String(card.imageSize[1])),
        ]
      : []),
    meta('property', 'og:image:alt', card.imageAlt),
    meta('name', 'twitter:card', card.large ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', title),
    meta('name', 'twitter:description', description),
    meta('name', 'twitter:image', card.image),
    meta('name', 'twitter:image:alt', card.imageAlt),
  ].join('\n');
}

const LOADING =
  '<p class="loading" role="status">Loading…</p><noscript><p class="notice">This page needs JavaScript.</p></noscript>';

/** The catalogue's first paint: its heading and the shapes of the cards to come (portal/pages/game-card.ts, skeletonCard). */
const SKELETON_CARD =
  '<li class="card skeleton" aria-hidden="true"><span class="cover skeleton-block"></span><span class="card-body"><span class="skeleton-line"></span><span class="skeleton-line short"></span></span><span class="card-meta"><span class="skeleton-line chip"></span></span></li>';
const CATALOGUE_LOADING = `<h1>Games</h1>\n<p class="muted" role="status">Loading games…</p>\n<ul class="cards" aria-label="Games" aria-busy="true">${SKELETON_CARD.repeat(8)}</ul><noscript><p class="notice">This page needs JavaScript.</p></noscript>`;

export function renderPage(manifest: Manifest | null, options: PageOptions): string {
  const player = options.account?.player ?? null;
  const here = options.account?.here ?? '/';
  const known = player === UNKNOWN_PLAYER ? null : player;
  const data = Object.entries({
    page: options.page,
    ...options.data,
    ...(options.signedOut ? { session: 'none' } : {}),
  })
    .map(([key, value]) => ` data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(value)}"`)
    .join('');
  const assets = manifest
    ? `<link rel="stylesheet" href="/assets/${escapeHtml(manifest.style)}">\n<script src="/assets/${escapeHtml(manifest.script)}" defer></script>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Game Platform</title>
<meta name="description" content="${escapeHtml(options.description ?? DEFAULT_DESCRIPTION)}">
${options.card ? `${cardTags(options.title, options.description ?? DEFAULT_DESCRIPTION, options.card)}\n` : ''}<link rel="icon" href="/favicon.ico" sizes="48x48">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="manifest" href="/manifest.webmanifest">
<meta name="theme-color" content="${THEME_COLOR}">
<meta name="color-scheme" content="light dark">
${assets}
</head>
<body${data}>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<div class="wrap header-row">
<a class="brand" href="/"><img src="/assets/icon.svg" alt="" width="28" height="28"> <span class="brand-name">Game Platform</span></a>
<nav aria-label="Main" class="main-nav"><a href="/">Games</a></nav>
<div id="account-nav" class="account-nav">${accountNav(player, here)}</div>
</div>
</header>
${options.page === 'play' && known?.guest ? guestBar(known, here) : ''}<main id="main" class="wrap ${options.layout ?? 'wide'}" tabindex="-1">
${options.main ?? (options.page === 'catalogue' ? CATALOGUE_LOADING : LOADING)}
</main>
<footer class="site-footer"><div class="wrap"><a href="/docs/sdk">Game SDK</a> · <a href="/docs">API</a></div></footer>
</body>
</html>
`;
}

function readablePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function renderNotFound(manifest: Manifest | null, path: string, signedOut = false): string {
  return renderPage(manifest, {
    signedOut,
    page: 'not-found',
    title: 'Page not found',
    layout: 'narrow',
    main: `<section class="panel center"><h1>Page not found</h1><p>There is nothing at <code>${escapeHtml(readablePath(path))}</code>.</p><p><a class="button primary" href="/">Browse the games</a></p></section>`,
  });
}
