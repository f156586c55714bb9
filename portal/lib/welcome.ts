// The welcome after registering: a status line at the top of the next page the player sees (not a modal), shown once.
import { h } from './dom.js';

const KEY = 'gp-welcome';

/** Remembers, for this tab, to welcome `name` on the next page. */
export function welcomeNext(name: string): void {
  try {
    sessionStorage.setItem(KEY, name);
  } catch {
    // storage refused (private mode, a full quota): no welcome, nothing else lost
  }
}

/** The welcome line owed to this tab, once, at the top of `main`; not in the play shell, where the game has the screen. */
export function showWelcome(main: HTMLElement, page: string | undefined): void {
  if (page === 'play' || page === 'preview') return;
  let name: string | null = null;
  try {
    name = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  if (!name) return;
  main.prepend(
    h(
      'p',
      { class: 'notice welcome', role: 'status' },
      h('strong', null, `Welcome, ${name}! `),
      'Your account is ready: your time, saves and scores are kept. We sent you a link to confirm your email.',
    ),
  );
}
