// A game's page: details, cover, favourite, share, thumbs up and down, the play button (or the Unlimited pitch), the
// screenshots, its leaderboard with a board picker, a period switch, pages and "around me", and "More like this".
import {
  avatar,
  errorPanel,
  formatNumber,
  formatScore,
  formatTimestamp,
  premiumBadge,
  unlimitedPitch,
} from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { h, mount, setTitle, uid } from '../lib/dom.js';
import { me, type Me } from '../lib/session.js';
import { shareButton } from '../lib/share.js';
import { categoryLabel } from './game-card.js';
import { gallerySection, ratingControl, relatedSection } from './game-discovery.js';
import type { Game, LeaderboardMeta } from '../lib/types.js';
import { formatDuration } from '../shell/schedule.js';

const PERIODS: Array<[GamePlatform.Period, string]> = [
  ['all', 'All time'],
  ['month', 'This month'],
  ['week', 'This week'],
  ['day', 'Today'],
];

/** Rows per leaderboard page. */
export const PAGE_SIZE = 10;
const BOARD = /^[a-z0-9_-]{1,40}$/;

/** stats.playtime_hours has one decimal (6 minutes): a human duration, and "under 3 min" rather than 0 once played. */
function timePlayed(stats: Game['stats']): string {
  if (stats.playtime_hours > 0) return formatDuration(stats.playtime_hours * 3600);
  return stats.plays > 0 ? 'Under 3 min' : 'Not yet played';
}

/** game.json's orientation in a player's words. */
export function orientationWords(orientation: string): string {
  if (orientation === 'landscape') return 'Best held sideways (landscape)';
  if (orientation === 'portrait') return 'Best held upright (portrait)';
  return 'Plays in any orientation';
}

/** "No saves", "1 save slot", "3 save slots". */
export function saveSlotWords(slots: number): string {
  return slots > 0 ? `${slots} save slot${slots === 1 ? '' : 's'}` : 'No saves';
}

/**
 * A free player, guest or visitor only: why Play is not the main button here (a premium game: "Unlimited only" before
 * any click; or today's free time used up), or null.
 */
function freePlayerNote(game: Game, who: Me | null): HTMLElement | null {
  if (who?.entitlement.unlimited) return null;
  if (game.requires_premium) {
    const login = h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}` }, 'Log in');
    return h(
      'div',
      { class: 'notice upsell', 'data-upsell': 'premium' },
      h(
        'p',
        null,
        h('strong', null, 'Unlimited only. '),
        !who
          ? ['This game is for Unlimited members: ', login, ' if you are one.']
          : who.player.guest
            ? 'This game is for Unlimited members. As a guest you can play every other game for your free time each day.'
            : 'This game is for Unlimited members. Your account has the free plan: you can play every other game for your free time each day.',
      ),
      unlimitedPitch('h3'),
    );
  }
  if (!who) return null;
  const { entitlement } = who;
  if (entitlement.limit_reached || (entitlement.remaining_seconds !== null && entitlement.remaining_seconds <= 0)) {
    return h(
      'div',
      { class: 'notice upsell', 'data-upsell': 'limit' },
      h(
        'p',
        null,
        `Your free play time for today (${formatDuration(entitlement.allowance_seconds)}) is used up. It comes back in ${formatDuration(entitlement.resets_in_seconds)}, at midnight.`,
      ),
      unlimitedPitch('h3'),
    );
  }
  return null;
}

export async function gamePage(main: HTMLElement, data: DOMStringMap): Promise<void> {
  const slug = data.slug!;
  let game: Game;
  try {
    game = (await api<Game>('GET', `/v1/games/${encodeURIComponent(slug)}`)).data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return mount(main, errorPanel('Game not found', 'This game does not exist or is no longer listed.'));
    throw error;
  }
  const who = await me();
  setTitle(game.name);

  // A free player who cannot play now (premium game, or no time left today) gets the pitch, not a primary Play button.
  const upsell = freePlayerNote(game, who);
  const premiumForFree = game.requires_premium && !who?.entitlement.unlimited;
  const play = premiumForFree
    ? null
    : h(
        'a',
        { class: upsell ? 'button large' : 'button primary large', href: `/play/${encodeURIComponent(game.slug)}` },
        'Play',
      );

  const details: Array<[string, string]> = [
    ['Category', categoryLabel(game.category)],
    ['Author', game.author],
    ['Version', game.version],
    ['Released', formatTimestamp(game.released_at)],
    [
      'Players',
      game.players.min === game.players.max ? String(game.players.min) : `${game.players.min}–${game.players.max}`,
    ],
    ['Screen', orientationWords(game.orientation)],
    ['Saves', saveSlotWords(game.save_slots)],
    ['Plays', formatNumber(game.stats.plays)],
    ['Time played', timePlayed(game.stats)],
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
        h(
          'p',
          { class: 'card-meta' },
          h('span', { class: 'badge' }, categoryLabel(game.category)),
          game.requires_premium ? premiumBadge() : null,
          game.status === 'beta' ? h('span', { class: 'badge' }, 'Beta') : null,
        ),
        h('div', { class: 'actions' }, play, favouriteButton(game, Boolean(who))),
        ratingControl(game),
        h(
          'div',
          { class: 'actions share-row' },
          shareButton(game.name, `${location.origin}/games/${encodeURIComponent(game.slug)}`),
        ),
        upsell,
        game.description ? h('p', { class: 'description' }, game.description) : null,
        game.tags.length
          ? h(
              'ul',
              { class: 'tags', 'aria-label': 'Tags' },
              game.tags.map((t) => h('li', null, h('a', { href: `/?q=${encodeURIComponent(t)}` }, `#${t}`))),
            )
          : null,
      ),
    ),
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'details-title' },
      h('h2', { id: 'details-title' }, 'Details'),
      h(
        'dl',
        { class: 'details' },
        details.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
      ),
    ),
    gallerySection(game),
    game.leaderboard.enabled ? leaderboardSection(game, who) : null,
    relatedSection(game),
  );
}

function favouriteButton(game: Game, loggedIn: boolean): HTMLElement {
  if (!loggedIn)
    return h(
      'a',
      { class: 'button', href: `/login?next=${encodeURIComponent(location.pathname)}` },
      '☆ Log in to add to favourites',
    );
  let on = Boolean(game.is_favorite);
  const button = h('button', { type: 'button', class: 'button favourite' });
  // What went wrong, said politely next to the button (the button keeps showing what is stored).
  const status = h('span', { class: 'favourite-status', role: 'status' });
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
    status.textContent = '';
    try {
      on = (await api<{ is_favorite: boolean }>('POST', `/v1/games/${encodeURIComponent(game.slug)}/favorite`)).data
        .is_favorite;
      render();
    } catch (error) {
      status.textContent =
        error instanceof ApiError && error.code === 'unauthenticated'
          ? 'Your session has ended: log in again to change your favourites.'
          : `Favourites not changed: ${(error as Error).message}`;
    } finally {
      busy = false;
      button.removeAttribute('aria-disabled');
    }
  });
  return h('span', { class: 'favourite-group' }, button, ' ', status);
}

interface BoardPage {
  leaderboard: GamePlatform.LeaderboardRow[];
  me?: { rank: number | null; best: number | null };
}

/** A leaderboard row's player: a link to the profile, or for a guest (which has none) its generated name alone. */
function playerName(player: GamePlatform.LeaderboardRow['player'] & { guest?: boolean }): HTMLElement {
  const content = [avatar(player.avatar_url, 24), player.display_name];
  if (player.guest) return h('span', { class: 'player-link guest-player' }, ...content);
  return h('a', { href: `/u/${encodeURIComponent(player.username)}`, class: 'player-link' }, ...content);
}

function leaderboardSection(game: Game, who: Me | null): HTMLElement {
  const params = new URLSearchParams(location.search);
  const asked = params.get('board') ?? '';
  let board = BOARD.test(asked) ? asked : 'main';
  let period = (params.get('period') as GamePlatform.Period | null) ?? 'all';
  if (!PERIODS.some(([p]) => p === period)) period = 'all';
  let offset = Math.max(0, Math.floor(Number(params.get('offset')) / PAGE_SIZE) * PAGE_SIZE || 0);
  let myRank: number | null = null;
  const gamePath = `/v1/games/${encodeURIComponent(game.slug)}`;

  // The board picker: the game's boards (GET …/leaderboard/boards), the one asked for in the URL kept among them.
  const boardId = uid('board');
  const boardSelect = h('select', { id: boardId, name: 'board' }, h('option', { value: board }, board));
  boardSelect.addEventListener('change', () => {
    board = boardSelect.value;
    offset = 0;
    void load();
  });
  // A game of one board shows neither the picker nor the board's name ("main" means nothing to a player).
  const boardNames = api<{ boards: string[] }>('GET', `${gamePath}/leaderboard/boards`)
    .then(({ data }) => {
      const names = data.boards.includes(board) ? data.boards : [...data.boards, board];
      mount(
        boardSelect,
        names.map((name) => h('option', { value: name }, name)),
      );
      boardSelect.value = board;
      boardField.hidden = names.length <= 1;
      return names;
    })
    .catch(() => {
      boardField.hidden = false; // boards unknown: the picker keeps the current board, and the board is named
      return null;
    });
  const periodGroup = h(
    'fieldset',
    { class: 'segmented' },
    h('legend', null, 'Period'),
    PERIODS.map(([value, label]) => {
      const id = uid(`period-${value}`);
      const input = h('input', { type: 'radio', name: 'period', id, value, checked: value === period });
      input.addEventListener('change', () => {
        period = value;
        offset = 0;
        void load();
      });
      return h('span', null, input, h('label', { for: id }, label));
    }),
  );
  const boardField = h(
    'div',
    { class: 'inline board-form', hidden: true },
    h('label', { for: boardId }, 'Board'),
    boardSelect,
  );

  const previous = h('button', { type: 'button', class: 'button small', disabled: true }, '← Previous');
  const next = h('button', { type: 'button', class: 'button small', disabled: true }, 'Next →');
  const aroundMe = who ? h('button', { type: 'button', class: 'button small', disabled: true }, 'Around me') : null;
  const pageInfo = h('span', { class: 'page-info' });
  previous.addEventListener('click', () => {
    offset = Math.max(0, offset - PAGE_SIZE);
    void load();
  });
  next.addEventListener('click', () => {
    offset += PAGE_SIZE;
    void load();
  });
  aroundMe?.addEventListener('click', () => {
    if (!myRank) return;
    offset = Math.floor((myRank - 1) / PAGE_SIZE) * PAGE_SIZE;
    void load(true);
  });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Leaderboard pages' }, previous, pageInfo, next, aroundMe);

  const mine = h('p', { class: 'my-rank' });
  const table = h('div', { class: 'table-wrap', 'aria-live': 'polite', tabindex: -1 });
  const section = h(
    'section',
    { class: 'panel leaderboard', 'aria-labelledby': 'lb-title' },
    h('h2', { id: 'lb-title' }, 'Leaderboard'),
    h('div', { class: 'controls' }, boardField, periodGroup),
    mine,
    table,
    pager,
  );

  /** A pager button that just became disabled had the focus: keep it on the pages, not on <body>. */
  function keepFocus(): void {
    const active = document.activeElement;
    if (!(active instanceof HTMLButtonElement) || !active.disabled || !pager.contains(active)) return;
    const other = [previous, next].find((b) => !b.disabled);
    (other ?? table).focus();
  }

  async function load(focusMe = false): Promise<void> {
    const url = new URL(location.href);
    url.searchParams.set('board', board);
    url.searchParams.set('period', period);
    if (offset > 0) url.searchParams.set('offset', String(offset));
    else url.searchParams.delete('offset');
    history.replaceState(null, '', url);
    try {
      const { data, meta } = await api<BoardPage, LeaderboardMeta>('GET', `${gamePath}/leaderboard`, {
        query: { board, period, limit: PAGE_SIZE, offset },
      });
      const total = meta.total ?? 0;
      if (!data.leaderboard.length && total > 0 && offset > 0) {
        offset = Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE; // past the end (an old link): the last page
        return load(focusMe);
      }
      const unit = meta.unit ?? game.leaderboard.unit;
      myRank = data.me?.rank ?? null;
      mine.textContent = data.me
        ? data.me.rank
          ? `Your rank: #${data.me.rank} with ${formatScore(data.me.best ?? 0, unit)}`
          : 'You have no score on this board for this period yet.'
        : '';
      previous.disabled = offset === 0;
      next.disabled = offset + data.leaderboard.length >= total;
      if (aroundMe) aroundMe.disabled = myRank === null;
      pageInfo.textContent = data.leaderboard.length
        ? `Ranks ${formatNumber(offset + 1)}–${formatNumber(offset + data.leaderboard.length)} of ${formatNumber(total)}`
        : '';
      pager.hidden = total <= PAGE_SIZE; // one page: nothing to page through, and the player's row (if any) is on it
      keepFocus();
      const periodLabel = PERIODS.find(([p]) => p === period)![1].toLowerCase();
      const named = (await boardNames)?.length !== 1;
      if (!data.leaderboard.length)
        return mount(
          table,
          h(
            'p',
            { class: 'empty' },
            `No scores${named ? ` on board “${board}”` : ''} ${periodLabel === 'all time' ? 'yet' : periodLabel}.`,
          ),
        );
      mount(
        table,
        h(
          'table',
          null,
          h(
            'caption',
            null,
            `${named ? `Board “${board}”, ${periodLabel}` : PERIODS.find(([p]) => p === period)![1]}, ${meta.order === 'asc' ? 'lowest' : 'highest'} first`,
          ),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { scope: 'col' }, 'Rank'),
              h('th', { scope: 'col' }, 'Player'),
              h('th', { scope: 'col', class: 'num' }, 'Best'),
              h('th', { scope: 'col', class: 'num hide-narrow' }, 'Scores submitted'),
              h('th', { scope: 'col', class: 'hide-narrow' }, 'Last score'),
            ),
          ),
          h(
            'tbody',
            null,
            data.leaderboard.map((row) => {
              const isMe = who !== null && row.player.username === who.player.username;
              return h(
                'tr',
                isMe ? { class: 'me', 'aria-current': 'true' } : null,
                h('td', null, `#${row.rank}`),
                h('td', null, playerName(row.player), isMe ? h('span', { class: 'you' }, ' (you)') : null),
                h('td', { class: 'num score' }, formatScore(row.score, unit)),
                h('td', { class: 'num hide-narrow' }, formatNumber(row.entries)),
                h('td', { class: 'hide-narrow' }, formatTimestamp(row.last_played)),
              );
            }),
          ),
        ),
      );
      if (focusMe) table.querySelector<HTMLElement>('tr.me a')?.focus();
    } catch (error) {
      mount(table, h('p', { class: 'form-error', role: 'alert' }, (error as Error).message));
    }
  }
  void load();
  return section;
}
