// A game's page: details, cover, favourite, the play button and its leaderboard with a board and period switch.
import { avatar, errorPanel, formatNumber, formatScore, formatTimestamp, premiumBadge } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { h, mount, setTitle, uid } from '../lib/dom.js';
import { me } from '../lib/session.js';
import type { Game, LeaderboardMeta } from '../lib/types.js';

const PERIODS: Array<[GamePlatform.Period, string]> = [
  ['all', 'All time'],
  ['month', 'This month'],
  ['week', 'This week'],
  ['day', 'Today'],
];

export async function gamePage(main: HTMLElement, data: DOMStringMap): Promise<void> {
  const slug = data.slug!;
  let game: Game;
  try {
    game = (await api<Game>('GET', `/v1/games/${encodeURIComponent(slug)}`)).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return mount(main, errorPanel('Game not found', 'This game does not exist or is no longer listed.'));
    throw error;
  }
  const who = await me();
  setTitle(game.name);

  const play = h('a', { class: 'button primary large', href: `/play/${encodeURIComponent(game.slug)}` }, 'Play');
  const premiumNote =
    game.requires_premium && !who?.entitlement.unlimited
      ? h('p', { class: 'notice' }, 'This game is for Unlimited members. ', who ? 'Your account has the free plan.' : h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}` }, 'Log in'), '')
      : null;

  const details: Array<[string, string]> = [
    ['Category', game.category],
    ['Author', game.author],
    ['Version', game.version],
    ['Released', game.released_at],
    ['Players', game.players.min === game.players.max ? String(game.players.min) : `${game.players.min}–${game.players.max}`],
    ['Orientation', game.orientation],
    ['Save slots', String(game.save_slots)],
    ['Plays', formatNumber(game.stats.plays)],
    ['Hours played', formatNumber(game.stats.playtime_hours)],
  ];

  mount(
    main,
    h('p', { class: 'breadcrumb' }, h('a', { href: '/' }, '← All games')),
    h(
      'section',
      { class: 'game-hero' },
      h('img', { class: 'cover large', src: game.cover_url, alt: `Cover of ${game.name}`, width: 640, height: 360 }),
      h(
        'div',
        { class: 'game-intro' },
        h('h1', null, game.name),
        game.tagline ? h('p', { class: 'tagline' }, game.tagline) : null,
        h('p', { class: 'card-meta' }, h('span', { class: 'badge' }, game.category), game.requires_premium ? premiumBadge() : null, game.status === 'beta' ? h('span', { class: 'badge' }, 'Beta') : null),
        h('div', { class: 'actions' }, play, favouriteButton(game, Boolean(who))),
        premiumNote,
        game.description ? h('p', { class: 'description' }, game.description) : null,
        game.tags.length ? h('ul', { class: 'tags', 'aria-label': 'Tags' }, game.tags.map((t) => h('li', null, h('a', { href: `/?q=${encodeURIComponent(t)}` }, `#${t}`)))) : null,
      ),
    ),
    h('section', { class: 'panel', 'aria-labelledby': 'details-title' }, h('h2', { id: 'details-title' }, 'Details'), h('dl', { class: 'details' }, details.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]))),
    game.leaderboard.enabled ? leaderboardSection(game, Boolean(who)) : null,
  );
}

function favouriteButton(game: Game, loggedIn: boolean): HTMLElement {
  if (!loggedIn) return h('a', { class: 'button', href: `/login?next=${encodeURIComponent(location.pathname)}` }, '☆ Log in to add to favourites');
  let on = Boolean(game.is_favorite);
  const button = h('button', { type: 'button', class: 'button favourite' });
  const render = () => {
    button.setAttribute('aria-pressed', String(on));
    button.textContent = on ? '★ Favourite' : '☆ Add to favourites';
  };
  render();
  // Busy while the toggle is on its way: aria-disabled, not disabled, which would drop the keyboard focus to <body>.
  let busy = false;
  button.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    try {
      on = (await api<{ is_favorite: boolean }>('POST', `/v1/games/${encodeURIComponent(game.slug)}/favorite`)).data.is_favorite;
      render();
    } finally {
      busy = false;
      button.removeAttribute('aria-disabled');
    }
  });
  return button;
}

function leaderboardSection(game: Game, loggedIn: boolean): HTMLElement {
  const params = new URLSearchParams(location.search);
  let board = params.get('board') ?? 'main';
  let period = (params.get('period') as GamePlatform.Period | null) ?? 'all';
  if (!PERIODS.some(([p]) => p === period)) period = 'all';

  const boardId = uid('board');
  const boardInput = h('input', { id: boardId, name: 'board', value: board, list: `${boardId}-list`, pattern: '[a-z0-9_\\-]{1,40}', maxlength: 40, autocomplete: 'off', spellcheck: 'false' });
  const boardList = h('datalist', { id: `${boardId}-list` }, h('option', { value: 'main' }));
  const periodGroup = h(
    'fieldset',
    { class: 'segmented' },
    h('legend', null, 'Period'),
    PERIODS.map(([value, label]) => {
      const id = uid(`period-${value}`);
      const input = h('input', { type: 'radio', name: 'period', id, value, checked: value === period });
      input.addEventListener('change', () => {
        period = value;
        void load();
      });
      return h('span', null, input, h('label', { for: id }, label));
    }),
  );
  const boardForm = h('form', { class: 'inline board-form' }, h('label', { for: boardId }, 'Board'), boardInput, boardList, h('button', { type: 'submit', class: 'button small' }, 'Show'));
  boardForm.addEventListener('submit', (event) => {
    event.preventDefault();
    board = boardInput.value.trim() || 'main';
    void load();
  });
  const mine = h('p', { class: 'my-rank' });
  const table = h('div', { class: 'table-wrap', 'aria-live': 'polite' });
  const section = h('section', { class: 'panel leaderboard', 'aria-labelledby': 'lb-title' }, h('h2', { id: 'lb-title' }, 'Leaderboard'), h('div', { class: 'controls' }, boardForm, periodGroup), mine, table);

  // Boards this player has scored on appear as suggestions.
  if (loggedIn) {
    void api<{ best: Array<{ game: string; board: string }> }>('GET', '/v1/me/scores')
      .then(({ data }) => {
        for (const b of new Set(data.best.filter((x) => x.game === game.slug).map((x) => x.board))) if (b !== 'main') boardList.append(h('option', { value: b }));
      })
      .catch(() => undefined);
  }

  async function load(): Promise<void> {
    const url = new URL(location.href);
    url.searchParams.set('board', board);
    url.searchParams.set('period', period);
    history.replaceState(null, '', url);
    try {
      const { data, meta } = await api<{ leaderboard: GamePlatform.LeaderboardRow[]; me?: { rank: number | null; best: number | null } }, LeaderboardMeta>('GET', `/v1/games/${encodeURIComponent(game.slug)}/leaderboard`, { query: { board, period, limit: 20 } });
      const unit = meta.unit ?? game.leaderboard.unit;
      mine.textContent = data.me ? (data.me.rank ? `Your rank: #${data.me.rank} with ${formatScore(data.me.best ?? 0, unit)}` : 'You have no score on this board for this period yet.') : '';
      const periodLabel = PERIODS.find(([p]) => p === period)![1].toLowerCase();
      if (!data.leaderboard.length) return mount(table, h('p', { class: 'empty' }, `No scores on board “${board}” ${periodLabel === 'all time' ? 'yet' : periodLabel}.`));
      mount(
        table,
        h(
          'table',
          null,
          h('caption', null, `Board “${board}”, ${periodLabel}, ${meta.order === 'asc' ? 'lowest' : 'highest'} first`),
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'num' }, 'Best'), h('th', { scope: 'col', class: 'num hide-narrow' }, 'Plays'), h('th', { scope: 'col', class: 'hide-narrow' }, 'Last played'))),
          h(
            'tbody',
            null,
            data.leaderboard.map((row) =>
              h(
                'tr',
                null,
                h('td', null, `#${row.rank}`),
                h('td', null, h('a', { href: `/u/${encodeURIComponent(row.player.username)}`, class: 'player-link' }, avatar(row.player.avatar_url, 24), row.player.display_name)),
                h('td', { class: 'num score' }, formatScore(row.score, unit)),
                h('td', { class: 'num hide-narrow' }, formatNumber(row.entries)),
                h('td', { class: 'hide-narrow' }, formatTimestamp(row.last_played)),
              ),
            ),
          ),
        ),
      );
    } catch (error) {
      const message = error instanceof ApiError && error.code === 'validation_failed' ? `Board names use a–z, 0–9, _ and -: ${Object.values(error.fields).join('; ') || error.message}` : (error as Error).message;
      mount(table, h('p', { class: 'form-error', role: 'alert' }, message));
    }
  }
  void load();
  return section;
}
