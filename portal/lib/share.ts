// The share button of game and profile pages: the system's share sheet (Web Share API) where there is one, otherwise
// the link goes to the clipboard and a status line says so.
import { h } from './dom.js';

/** A button that shares `url` (with `title`), and the polite status line that reports what happened. */
export function shareButton(title: string, url: string): HTMLElement {
  const button = h('button', { type: 'button', class: 'button share' }, 'Share');
  const status = h('span', { class: 'share-status', role: 'status' });
  button.addEventListener('click', async () => {
    status.textContent = '';
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if ((error as Error).name === 'AbortError') return; // the player closed the sheet
        // otherwise (not allowed here, say): copy instead
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = 'Link copied';
    } catch {
      status.textContent = `Copy this link: ${url}`;
    }
  });
  return h('span', { class: 'share-group' }, button, ' ', status);
}
