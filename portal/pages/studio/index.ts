// /studio: the studio console (studio members): the member's games and, per game, its views over /v1/studio, picked by
// ?view= (docs/game-developers.md, "Studio console"): its builds with the upload (here, the default), its numbers
// (numbers.ts), its leaderboards with moderation (leaderboards.ts), the listing editor (listing.ts) and the developer
// keys (keys.ts). Anyone else sees a "not a studio member" page.
import { type ApiError, api } from '../../lib/api.js';
import { dataTable, h, mount, setTitle } from '../../lib/dom.js';
import { requireLogin } from '../../lib/session.js';
import { keysView } from './keys.js';
import { leaderboardsView } from './leaderboards.js';
import { listingView } from './listing.js';
import { numbersView } from './numbers.js';
import { uploadPanel } from './upload.js';

const VIEWS = [
  ['builds', 'Builds'],
  ['numbers', 'Numbers'],
  ['leaderboards', 'Leaderboards'],
  ['listing', 'Listing'],
  ['keys', 'Developer keys'],
] as const;

interface StudioGame {
  slug: string;
  name: string;
  status: string;
  studio: string | null;
}
interface Build {
  number: number;
  version: string;
  state: string;
  live: boolean;
  bytes: number;
  uploaded_by: string | null;
  created_at: string;
  preview_url: string;
}

const params = () => new URLSearchParams(location.search);

export async function studioPage(main: HTMLElement): Promise<void> {
  await requireLogin();
  const { data } = await api<{ games: StudioGame[] }>('GET', '/v1/studio/games');
  const { data: mine } = await api<{ studios: unknown[] }>('GET', '/v1/studio/studios');
  if (mine.studios.length === 0) {
    setTitle('Not a studio member');
    mount(
      main,
      h('h1', null, 'Not a studio member'),
      h('p', null, 'The studio console is for members of a studio.'),
      h('p', null, h('a', { href: '/' }, 'Back to the games')),
    );
    return;
  }
  const slug = params().get('game');
  const game = data.games.find((g) => g.slug === slug);
  const [view, viewTitle] = VIEWS.find(([v]) => v === params().get('view')) ?? VIEWS[0];
  const status = h('p', { role: 'status', class: 'muted' });
  const body = h('div');
  setTitle(game ? `Studio console: ${game.name}, ${viewTitle.toLowerCase()}` : 'Studio console');
  mount(
    main,
    h('h1', null, 'Studio console'),
    h(
      'nav',
      { 'aria-label': 'Your games' },
      h(
        'ul',
        { class: 'inline' },
        data.games.map((g) =>
          h(
            'li',
            null,
            h(
              'a',
              { href: `/studio?game=${encodeURIComponent(g.slug)}`, 'aria-current': g === game ? 'page' : undefined },
              g.name,
            ),
          ),
        ),
      ),
    ),
    game
      ? h(
          'nav',
          { 'aria-label': `${game.name}: views`, class: 'chips studio-views' },
          VIEWS.map(([v, label]) =>
            h(
              'a',
              {
                class: 'chip',
                href: `/studio?game=${encodeURIComponent(game.slug)}&view=${v}`,
                'aria-current': v === view ? 'page' : undefined,
              },
              label,
            ),
          ),
        )
      : null,
    status,
    body,
  );
  if (!game) {
    mount(body, h('p', null, data.games.length ? 'Pick a game.' : 'Your studios have no games yet.'));
    return;
  }
  const say = (text: string) => {
    status.textContent = text;
  };
  if (view === 'numbers') return numbersView(body, game, say);
  if (view === 'leaderboards') return leaderboardsView(body, game, say);
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      say(done);
      await builds();
    } catch (error) {
      say(`Refused: ${(error as ApiError).message}`);
    }
  };
  const base = `/v1/studio/games/${encodeURIComponent(game.slug)}`;
  if (view === 'listing') return listingView(body, base);
  if (view === 'keys') return keysView(body, base);
  const list = h('div');
  mount(
    body,
    h('h2', null, 'Builds'),
    uploadPanel(base, () => builds()),
    list,
  );
  async function builds(): Promise<void> {
    const { data: listed } = await api<{ builds: Build[] }>('GET', `${base}/builds`);
    mount(
      list,
      dataTable(
        'Builds',
        ['Number', 'Version', 'Size', 'Uploader', 'Time', 'Live', 'Preview', 'Actions'],
        listed.builds.map((b) => [
          String(b.number),
          b.version,
          `${Math.ceil(b.bytes / 1024)} KB`,
          b.uploaded_by ?? 'developer key',
          b.created_at,
          b.live ? 'Live' : '',
          b.state === 'ready' ? h('a', { href: b.preview_url }, `Preview ${b.number}`) : '',
          b.live || b.state !== 'ready'
            ? ''
            : h(
                'button',
                {
                  class: 'button',
                  type: 'button',
                  onclick: () =>
                    act(() => api('POST', `${base}/builds/${b.number}/release`), `Build ${b.number} released.`),
                },
                `Release ${b.number}`,
              ),
        ]),
      ),
      h(
        'button',
        { class: 'button', type: 'button', onclick: () => act(() => api('POST', `${base}/rollback`), 'Rolled back.') },
        'Roll back',
      ),
    );
  }
  await builds();
}
