// Who is logged in: GET /v1/me once per page, shared by the header and the page; and the guest a visitor plays as.
import { ApiError, api } from './api.js';
import type { FieldSpec } from './forms.js';
import { safeNextPath } from './next-path.js';

export interface PublicPlayer {
  id: number;
  username: string;
  display_name: string;
  avatar_url: string;
  bio: string | null;
  country: string | null;
  member_since: string;
}

export interface OwnPlayer extends PublicPlayer {
  /** null for a guest */
  email: string | null;
  email_verified: boolean;
  role: string;
  newsletter: boolean;
  /** a guest player: made by Play for a visitor, with no email or password; registering or logging in claims it */
  guest: boolean;
}

export interface Membership {
  unlimited: boolean;
  plan: string;
  status: string;
  renews_at: string | null;
  ends_at: string | null;
}

export interface Me {
  player: OwnPlayer;
  entitlement: GamePlatform.Entitlement;
  membership: Membership;
}

let current: Promise<Me | null> | null = null;
/** the player `current` resolved to, once it has (null before, and for nobody) */
let known: Me | null = null;
const refreshed: Array<(who: Me | null) => void> = [];

/** The player this page knows of so far, without asking (the pitches read it to speak to a guest or a free player). */
export function knownPlayer(): Me | null {
  return known;
}

export const isGuest = (who: Me | null): boolean => who?.player.guest === true;

/** Runs `listener` with the player each time `me(true)` asks again (the header follows a profile change). */
export function onMeRefreshed(listener: (who: Me | null) => void): void {
  refreshed.push(listener);
}

/** The logged-in player, or null. A page served without a session cookie says so (data-session="none"): no need to ask. */
export function me(refresh = false): Promise<Me | null> {
  if (!refresh && !current && document.body.dataset.session === 'none') current = Promise.resolve(null);
  if (!current || refresh) {
    current = api<Me>('GET', '/v1/me').then(
      (r) => (known = r.data),
      (error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
        throw error;
      },
    );
    if (refresh)
      void current.then(
        (who) =>
          refreshed.forEach((listener) => {
            listener(who);
          }),
        () => undefined,
      );
  }
  return current;
}

/** Tells the header (and whoever follows) that the page now plays as `who`. */
function becomes(who: Me): Me {
  known = who;
  current = Promise.resolve(who);
  for (const listener of refreshed) listener(who);
  return who;
}

/** A free player's membership: what a new guest has. */
const FREE: Membership = { unlimited: false, plan: 'free', status: 'none', renews_at: null, ends_at: null };

/**
 * The player to play as: the logged-in player or guest, else a new guest made for this visitor (POST /v1/auth/guest,
 * which sets the session cookie). null when the service makes no more guests for this address today (429
 * guest_limit_reached, or guests are off): the visitor then logs in or registers to play.
 */
export async function ensurePlayer(): Promise<Me | null> {
  const who = await me();
  if (who) return who;
  try {
    const { data } = await api<Omit<Me, 'membership'>>('POST', '/v1/auth/guest');
    return becomes({ player: data.player, entitlement: data.entitlement, membership: FREE });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'guest_limit_reached') return null;
    throw error;
  }
}

/** The logged-in player; sends anyone else to the login page, coming back here afterwards. */
export async function requireLogin(): Promise<Me> {
  const who = await me();
  if (!who) {
    location.assign(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    return new Promise(() => undefined); // the page is leaving
  }
  return who;
}

/** A local path to return to after logging in (never another site). */
export function nextPath(fallback = '/'): string {
  return safeNextPath(new URLSearchParams(location.search).get('next'), location.origin, fallback);
}

/** The login form's fields (the login page's, and the play view's when the player was signed out while playing). */
export const LOGIN_FIELDS: FieldSpec[] = [
  { name: 'login', label: 'Email or username', required: true, autocomplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' },
];
