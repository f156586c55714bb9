// The header's account area (logged in or not) and small pieces several pages share.
import { api } from './lib/api.js';
import { byId, h, mount } from './lib/dom.js';
import { isGuest, knownPlayer, me, onMeRefreshed, type Me } from './lib/session.js';
import { guestNav, guestOffer, hideGuestBar, notSoldHere, showGuestBar } from './pages/guest.js';

let following = false;

export async function renderAccountNav(): Promise<void> {
  if (!following) {
    following = true;
    onMeRefreshed((who) => showAccount(who));
  }
  let who: Me | null;
  try {
    who = await me();
  } catch {
    // The API could not say (the database out of reach, offline): the header stays as served (the player's, or left
    // empty by a server that could not say either), and is asked again (docs/portal.md, "The portal").
    askAgain(1);
    return;
  }
  showAccount(who);
}

/** Asks /v1/me again after 5, 10, 15… seconds, six times at most; an answer redraws the header (onMeRefreshed). */
function askAgain(attempt: number): void {
  if (attempt > 6) return;
  setTimeout(() => void me(true).catch(() => askAgain(attempt + 1)), 5000 * attempt);
}

function showAccount(who: Me | null): void {
  const nav = byId('account-nav');
  if (!who) {
    const next =
      location.pathname === '/' || ['/login', '/register', '/logout'].includes(location.pathname)
        ? ''
        : `?next=${encodeURIComponent(location.pathname + location.search)}`;
    mount(
      nav,
      h('a', { href: `/login${next}` }, 'Log in'),
      ' ',
      h('a', { class: 'button small', href: '/register' }, 'Register'),
    );
    return;
  }
  if (isGuest(who)) {
    mount(nav, ...guestNav(who, avatar(who.player.avatar_url, 28)));
    if (document.body.dataset.page === 'play') showGuestBar(who);
    return;
  }
  hideGuestBar();
  const logout = h('button', { type: 'button', class: 'link-button' }, 'Log out');
  logout.addEventListener('click', () => void logOut());
  mount(
    nav,
    h('a', { href: '/playtime' }, 'Playtime'),
    h(
      'a',
      { href: '/account', class: 'account-link', 'aria-label': `Account settings for ${who.player.display_name}` },
      avatar(who.player.avatar_url, 28),
      h('span', { class: 'account-name' }, who.player.display_name),
    ),
    logout,
  );
}

export async function logOut(): Promise<void> {
  await api('POST', '/v1/auth/logout').catch(() => undefined);
  location.assign('/');
}

export function avatar(url: string, size: number, alt = ''): HTMLImageElement {
  return h('img', { class: 'avatar', src: url, alt, width: size, height: size, loading: 'lazy' });
}

export function premiumBadge(): HTMLElement {
  return h('span', { class: 'badge premium' }, 'Unlimited only');
}

/** Where "Get Unlimited" goes: the setting upgrade_url, handed over as <body data-upgrade-url>; null when unset. */
export function upgradeUrl(): string | null {
  const url = document.body.dataset.upgradeUrl;
  return url && /^https?:\/\//.test(url) ? url : null;
}

/** The "Get Unlimited" link, or null when the service has no upgrade_url (then no pitch offers one). */
export function upgradeLink(primary = true): HTMLElement | null {
  const url = upgradeUrl();
  return url
    ? h('a', { class: primary ? 'button primary upgrade' : 'button upgrade', href: url }, 'Get Unlimited')
    : null;
}

/**
 * What an Unlimited membership gives, for the limit and premium screens and game pages, with "Get Unlimited" when set;
 * without upgrade_url, that it is not sold here and what a free player can do instead. A guest is also offered an account.
 */
export function unlimitedPitch(headingLevel: 'h2' | 'h3' = 'h2'): HTMLElement {
  const link = upgradeLink();
  const who = knownPlayer();
  const pitch = h(
    'div',
    { class: 'pitch' },
    h(headingLevel, null, 'What Unlimited gives you'),
    h(
      'ul',
      null,
      h('li', null, 'Play as long as you like, every day: no daily time limit.'),
      h('li', null, 'Every game, including the ones marked Unlimited only.'),
      h('li', null, 'Your saves, scores and leaderboard places stay exactly as they are.'),
    ),
    link ? h('p', { class: 'actions' }, link) : notSoldHere(who),
  );
  return isGuest(who) ? h('div', { class: 'pitches' }, pitch, guestOffer()) : pitch;
}

/** A panel that says what went wrong, with where to go next (`next`: links or buttons, one paragraph). */
export function errorPanel(title: string, message: string, ...next: Node[]): HTMLElement {
  return h(
    'section',
    { class: 'panel' },
    h('h1', null, title),
    h('p', { role: 'alert' }, message),
    ...(next.length ? [h('p', null, ...next)] : []),
  );
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat('en').format(value);
}

/** A score with the board's unit ("412 ms", "1,250 points"). */
export function formatScore(value: number, unit: string): string {
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

/** "2026-11-21 09:30:00" (UTC) → a local, readable date ("21 Nov 2026"); a plain date "2026-11-21" is that day, in any zone. The portal's one date format. */
export function formatTimestamp(stamp: string, withTime = false): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(stamp);
  const date = new Date(dateOnly ? `${stamp}T00:00:00Z` : `${stamp.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return stamp;
  if (dateOnly) return date.toLocaleDateString('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });
  return date.toLocaleString('en-GB', withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
}
