// What the portal shows a guest (a visitor playing without an account): the header's name and links, the quiet bar of
// the play view, the offer on the limit and premium screens, the notes of the register and login pages, and the screen
// Play shows when no guest can be made.
import { h } from '../lib/dom.js';
import type { Me } from '../lib/session.js';
import { formatDuration } from '../shell/schedule.js';

/** This page, to come back to after registering or logging in. */
const here = () => encodeURIComponent(location.pathname + location.search);
const registerHref = () => `/register?next=${here()}`;
const loginHref = () => `/login?next=${here()}`;

/** The header for a guest: who it plays as, and the two ways to keep its progress. */
export function guestNav(who: Me, avatar: HTMLElement): Node[] {
  return [
    h('a', { href: '/playtime', class: 'hide-narrow' }, 'Playtime'),
    h(
      'span',
      { class: 'account-link guest-name', title: 'You are playing as a guest' },
      avatar,
      h('span', { class: 'account-name' }, `${who.player.display_name} (guest)`),
    ),
    h('a', { href: loginHref() }, 'Log in'),
    h('a', { class: 'button small', href: registerHref() }, 'Create account'),
  ];
}

const BAR_HIDDEN = 'gp-guest-bar-hidden';

/**
 * The play view's quiet bar for a guest: one line above the game, never over it, that a "Not now" hides for the rest of
 * the tab's visit. Put once, after the site header.
 */
export function showGuestBar(who: Me): void {
  const served = document.querySelector<HTMLElement>('.guest-bar');
  if (sessionStorage.getItem(BAR_HIDDEN)) {
    served?.remove();
    return;
  }
  if (served) {
    // The page came with the bar (the server knew the guest): give its "Not now" its work, once.
    const button = served.querySelector<HTMLButtonElement>('button.link-button');
    if (button && !button.dataset.wired) {
      button.dataset.wired = 'true';
      button.addEventListener('click', () => {
        sessionStorage.setItem(BAR_HIDDEN, '1');
        served.remove();
      });
    }
    return;
  }
  const later = h('button', { type: 'button', class: 'link-button' }, 'Not now');
  const bar = h(
    'aside',
    { class: 'guest-bar', 'aria-label': 'Your guest progress' },
    h(
      'p',
      null,
      h('span', { class: 'hide-narrow' }, `Playing as ${who.player.display_name}. `),
      h('a', { class: 'guest-bar-register', href: registerHref() }, 'Create a free account'),
      ' to keep your progress on every device. ',
      h('a', { href: loginHref() }, 'Log in'),
      ' ',
      later,
    ),
  );
  later.addEventListener('click', () => {
    sessionStorage.setItem(BAR_HIDDEN, '1');
    bar.remove();
  });
  document.querySelector('.site-header')?.after(bar);
}

/** Takes the bar away (the player is no longer a guest). */
export function hideGuestBar(): void {
  document.querySelector('.guest-bar')?.remove();
}

/** On the limit and premium screens: what an account does for a guest (it keeps the time, it does not add any). */
export function guestOffer(): HTMLElement {
  return h(
    'div',
    { class: 'guest-offer' },
    h(
      'p',
      null,
      'You are playing as a guest. Create a free account to keep your progress on every device: your time today, saves and scores come with you.',
    ),
    h(
      'p',
      { class: 'actions' },
      h('a', { class: 'button primary', href: registerHref() }, 'Create a free account'),
      h('a', { class: 'button', href: loginHref() }, 'Log in'),
    ),
  );
}

/**
 * With upgrade_url unset: Unlimited is not sold here, and what a free player can do instead — come back at the reset
 * (with the time to it), and play the games not marked Unlimited only.
 */
export function notSoldHere(who: Me | null): HTMLElement {
  const e = who?.entitlement;
  let instead = 'Every game not marked Unlimited only is free to play, every day.';
  if (e && !e.unlimited) {
    const daily = formatDuration(e.allowance_seconds);
    const reset = formatDuration(e.resets_in_seconds);
    instead =
      e.limit_reached || e.remaining_seconds === 0
        ? `As a free player, come back when your free time resets in ${reset} (at midnight): ${daily} a day of every game not marked Unlimited only.`
        : `As a free player you can play every game not marked Unlimited only: ${formatDuration(e.remaining_seconds ?? 0)} left today, and ${daily} again after the reset in ${reset}.`;
  }
  return h('p', { class: 'not-sold' }, h('strong', null, 'Unlimited is not sold on this site. '), instead);
}

/** Under the register form, for a guest: the account is the guest, so nothing is lost. */
export function registerNote(who: Me): HTMLElement {
  return h(
    'p',
    { class: 'notice guest-note' },
    `You are playing as ${who.player.display_name}. Your new account keeps everything you did as a guest: your play time today, your saves and your scores.`,
  );
}

/** Above the login form, for a guest: what a login does with its progress. */
export function loginNote(who: Me): HTMLElement {
  return h(
    'p',
    { class: 'notice guest-note' },
    `You are playing as ${who.player.display_name}. Logging in moves your guest progress into your account: your scores, your play time today (up to the daily free time), and your saves into slots that are empty in your account. A slot your account already uses keeps its save.`,
  );
}

export interface ClaimedGuest {
  via: 'register' | 'merge';
  seconds_added_today?: number;
  saves_moved?: number;
  saves_not_moved?: number;
  scores_moved?: number;
  favorites_added?: number;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** After a login that merged a guest: what moved, in one sentence; null when the guest had nothing to move. */
export function mergeSummary(claimed: ClaimedGuest): string | null {
  const parts: string[] = [];
  if (claimed.scores_moved) parts.push(count(claimed.scores_moved, 'score', 'scores'));
  if (claimed.saves_moved) parts.push(count(claimed.saves_moved, 'save', 'saves'));
  if (claimed.seconds_added_today) parts.push(`${formatDuration(claimed.seconds_added_today)} of play time today`);
  if (claimed.favorites_added) parts.push(count(claimed.favorites_added, 'favourite', 'favourites'));
  const kept = claimed.saves_not_moved
    ? ` ${count(claimed.saves_not_moved, 'guest save was', 'guest saves were')} left out: your account already used ${claimed.saves_not_moved === 1 ? 'that slot, and its save is kept' : 'those slots, and their saves are kept'}.`
    : '';
  if (!parts.length && !kept) return null;
  return `${parts.length ? `Your guest progress is now in your account: ${parts.join(', ')}.` : ''}${kept}`.trim();
}
