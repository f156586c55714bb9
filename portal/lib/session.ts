// Who is logged in: GET /v1/me once per page, shared by the header and the page.
import { ApiError, api } from './api.js';

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
  email: string;
  email_verified: boolean;
  role: string;
  newsletter: boolean;
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
const refreshed: Array<(who: Me | null) => void> = [];

/** Runs `listener` with the player each time `me(true)` asks again (the header follows a profile change). */
export function onMeRefreshed(listener: (who: Me | null) => void): void {
  refreshed.push(listener);
}

/** The logged-in player, or null. A page served without a session cookie says so (data-session="none"): no need to ask. */
export function me(refresh = false): Promise<Me | null> {
  if (!refresh && !current && document.body.dataset.session === 'none') current = Promise.resolve(null);
  if (!current || refresh) {
    current = api<Me>('GET', '/v1/me').then(
      (r) => r.data,
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
  const next = new URLSearchParams(location.search).get('next');
  return next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : fallback;
}
