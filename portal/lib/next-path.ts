// Where to go after logging in or registering: the `next` query parameter, only when it stays on this site.

/**
 * `next` when it is a path on `origin`, else `fallback`. The browser resolves `next` the way `new URL(next, origin)`
 * does (dropping tabs and newlines, reading backslashes as slashes), so it is accepted only when that resolution keeps
 * the origin; the returned path is the resolved one, so the browser navigates exactly where this check looked.
 */
export function safeNextPath(next: string | null | undefined, origin: string, fallback = '/'): string {
  if (!next?.startsWith('/')) return fallback;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  return url.pathname + url.search + url.hash;
}
