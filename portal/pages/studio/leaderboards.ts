// The studio console's Leaderboards view: a page of one of the game's boards in a period (GET
// /v1/studio/games/{slug}/leaderboard: the public page with each row's submission and player), and per row a removal,
// of that best or of all the player's scores on the board, with a reason (POST …/scores/removals). The page reloads
// after a removal (docs/api.md, "Studio console: numbers, moderation, audit log"). A board's season can be ended here,
// and an ended season read back (docs/api.md, "Board seasons").
import { type ApiError, api } from '../../lib/api.js';
import { dataTable, h, mount, uid } from '../../lib/dom.js';

const PERIODS = [
  ['all', 'All time'],
  ['month', 'This month'],
  ['week', 'This week'],
  ['day', 'Today'],
] as const;
const PAGE = 25;

interface Row {
  rank: number;
  score: number;
  entries: number;
  last_played: string;
  player: { username: string; display_name: string; guest?: true };
  score_id: number;
  player_id: number;
}
interface Season {
  season: number;
  ended_at: string;
  players: number;
}
interface SeasonList {
  live_season: number;
  seasons: Season[];
}
interface Meta {
  board: string;
  period: string;
  unit: string;
  offset: number;
  total: number;
}

function field(text: string, control: HTMLInputElement | HTMLSelectElement): HTMLElement {
  control.id ||= uid('f');
  return h('div', { class: 'field' }, h('label', { for: control.id }, text), control);
}

/** The Leaderboards view of one game in `body`; `say` speaks through the console's status line. */
export async function leaderboardsView(
  body: HTMLElement,
  game: { slug: string; name: string },
  say: (text: string) => void,
): Promise<void> {
  const query = new URLSearchParams(location.search);
  const slug = encodeURIComponent(game.slug);
  let boards: string[];
  try {
    ({
      data: { boards },
    } = await api<{ boards: string[] }>('GET', `/v1/games/${slug}/leaderboard/boards`));
  } catch (error) {
    const e = error as ApiError;
    mount(
      body,
      h('h2', null, 'Leaderboards'),
      h(
        'p',
        null,
        e.code === 'leaderboard_disabled'
          ? 'This game has no leaderboard.'
          : e.status === 404
            ? 'The leaderboards show once the game is listed.'
            : e.message,
      ),
    );
    return;
  }
  const board = boards.includes(query.get('board') ?? '') ? query.get('board')! : boards[0]!;
  const offset = Math.max(0, Math.floor(Number(query.get('offset')) || 0));
  // The board's seasons: the live one, and the ended ones a member may read back (all time only).
  const seasons = await api<SeasonList>('GET', `/v1/games/${slug}/leaderboard/seasons`, { query: { board } }).then(
    (r) => r.data,
    () => ({ live_season: 1, seasons: [] }) as SeasonList,
  );
  const ended = seasons.seasons.find((x) => String(x.season) === query.get('season')) ?? null;
  const period = ended ? 'all' : (PERIODS.find(([p]) => p === query.get('period'))?.[0] ?? 'all');

  const boardPick = h(
    'select',
    { name: 'board' },
    boards.map((b) => h('option', { value: b, selected: b === board }, b)),
  );
  const periodPick = h(
    'select',
    { name: 'period' },
    PERIODS.map(([p, label]) => h('option', { value: p, selected: p === period }, label)),
  );
  const seasonPick = h(
    'select',
    { name: 'season' },
    h('option', { value: '', selected: !ended }, `Live (season ${seasons.live_season})`),
    seasons.seasons.map((x) =>
      h('option', { value: String(x.season), selected: x === ended }, `Season ${x.season} (ended ${x.ended_at})`),
    ),
  );
  const picker = h(
    'form',
    { method: 'get', action: '/studio', class: 'inline', 'aria-label': 'Board, season and period' },
    h('input', { type: 'hidden', name: 'game', value: game.slug }),
    h('input', { type: 'hidden', name: 'view', value: 'leaderboards' }),
    field('Board', boardPick),
    field('Season', seasonPick),
    field('Period', periodPick),
    h('button', { class: 'button', type: 'submit' }, 'Show'),
  );
  const heading = h('h3', { tabindex: -1 });
  const table = h('div');
  const pager = h('p', { class: 'inline' });
  const removal = h('div');
  const seasonEnd = h('div');
  mount(body, h('h2', null, 'Leaderboards'), picker, heading, table, pager, removal, seasonEnd);
  if (!ended) mount(seasonEnd, newSeasonButton());

  const link = (to: number, text: string) => {
    const params = new URLSearchParams({ game: game.slug, view: 'leaderboards', board, period, offset: String(to) });
    if (ended) params.set('season', String(ended.season));
    return h('a', { href: `/studio?${params}` }, text);
  };

  /** "Start a new season", asking first: the live standings are kept as a season, every period starts empty. */
  function newSeasonButton(): HTMLElement {
    const live = seasons.live_season;
    const start = h('button', { class: 'button', type: 'button' }, 'Start a new season');
    start.addEventListener('click', () => {
      const titleId = uid('season');
      const error = h('p', { class: 'field-error', role: 'alert' });
      const cancel = h('button', { class: 'button', type: 'button' }, 'Cancel');
      const confirm = h('button', { class: 'button danger', type: 'button' }, `End season ${live}`);
      const panel = h(
        'section',
        { class: 'panel', 'aria-labelledby': titleId },
        h('h3', { id: titleId, tabindex: -1 }, `End season ${live} of the board ${board}?`),
        h(
          'p',
          null,
          'Its all-time standings are kept as they stand and can be read here; every period of the board starts empty, and only scores submitted from now on count.',
        ),
        error,
        h('div', { class: 'actions' }, confirm, cancel),
      );
      cancel.addEventListener('click', () => {
        mount(seasonEnd, start);
        start.focus();
      });
      confirm.addEventListener('click', async () => {
        confirm.disabled = true;
        try {
          const { data } = await api<{ ended: Season; live_season: number }>(
            'POST',
            `/v1/studio/games/${slug}/leaderboards/${encodeURIComponent(board)}/seasons`,
          );
          await leaderboardsView(body, game, say);
          say(
            `Season ${data.ended.season} of ${board} ended with ${data.ended.players} ${data.ended.players === 1 ? 'player' : 'players'}; season ${data.live_season} has begun.`,
          );
        } catch (failure) {
          confirm.disabled = false;
          error.textContent = `Refused: ${(failure as ApiError).message}`;
        }
      });
      mount(seasonEnd, panel);
      panel.querySelector<HTMLElement>('h3')!.focus();
    });
    return start;
  }

  /** An ended season's standings, read back (the public board with `season`): no removal, the season is kept as it was. */
  async function loadEnded(season: Season): Promise<void> {
    const { data, meta } = await api<{ leaderboard: Omit<Row, 'score_id' | 'player_id'>[] }, Meta>(
      'GET',
      `/v1/games/${slug}/leaderboard`,
      { query: { board, season: season.season, limit: PAGE, offset } },
    );
    heading.textContent = `${board}, season ${season.season}: ${meta.total} ${meta.total === 1 ? 'player' : 'players'}`;
    mount(
      table,
      dataTable(
        `Board ${board}, season ${season.season}`,
        ['Rank', 'Player', `Score (${meta.unit})`, 'Submissions', 'Last played'],
        data.leaderboard.map((row) => [
          String(row.rank),
          row.player.guest ? row.player.display_name : `${row.player.display_name} (${row.player.username})`,
          String(row.score),
          String(row.entries),
          row.last_played,
        ]),
      ),
    );
    mount(
      pager,
      offset > 0 ? link(Math.max(0, offset - PAGE), 'Previous page') : null,
      offset + PAGE < meta.total ? link(offset + PAGE, 'Next page') : null,
    );
  }

  async function load(): Promise<void> {
    if (ended) return loadEnded(ended);
    const { data, meta } = await api<{ leaderboard: Row[] }, Meta>('GET', `/v1/studio/games/${slug}/leaderboard`, {
      query: { board, period, limit: PAGE, offset },
    });
    const label = PERIODS.find(([p]) => p === period)![1];
    heading.textContent = `${board}, ${label.toLowerCase()}: ${meta.total} ${meta.total === 1 ? 'player' : 'players'}`;
    mount(
      table,
      dataTable(
        `Board ${board}, ${label.toLowerCase()}`,
        ['Rank', 'Player', `Score (${meta.unit})`, 'Submissions', 'Last played', 'Actions'],
        data.leaderboard.map((row) => {
          const who = row.player.guest
            ? row.player.display_name
            : `${row.player.display_name} (${row.player.username})`;
          return [
            String(row.rank),
            who,
            String(row.score),
            String(row.entries),
            row.last_played,
            h(
              'button',
              {
                class: 'button small danger',
                type: 'button',
                'aria-label': `Remove ${who}'s score ${row.score}`,
                onclick: (event: Event) => askRemoval(row, who, event.currentTarget as HTMLButtonElement),
              },
              'Remove',
            ),
          ];
        }),
      ),
    );
    mount(
      pager,
      offset > 0 ? link(Math.max(0, offset - PAGE), 'Previous page') : null,
      offset + PAGE < meta.total ? link(offset + PAGE, 'Next page') : null,
    );
  }

  /** The removal form for one row, below the table; Cancel (or Escape) puts the focus back on the row's button. */
  function askRemoval(row: Row, who: string, opener: HTMLButtonElement): void {
    const titleId = uid('removal');
    const reason = h('input', { type: 'text', required: true, minlength: 3, maxlength: 500, autocomplete: 'off' });
    const radios = uid('what');
    const one = h('input', { type: 'radio', name: radios, value: 'score', checked: true, id: `${radios}-one` });
    const all = h('input', { type: 'radio', name: radios, value: 'player', id: `${radios}-all` });
    const error = h('p', { class: 'field-error', role: 'alert' });
    const close = () => {
      mount(removal);
      opener.focus();
    };
    const form = h(
      'form',
      { class: 'panel studio-removal', 'aria-labelledby': titleId, novalidate: true },
      h('h3', { id: titleId, tabindex: -1 }, `Remove ${who}'s score`),
      h(
        'fieldset',
        null,
        h('legend', null, 'What to remove'),
        h(
          'div',
          { class: 'field-check' },
          one,
          h('label', { for: one.id }, `This best score: ${row.score} (${row.last_played})`),
        ),
        h(
          'div',
          { class: 'field-check' },
          all,
          h('label', { for: all.id }, `All of ${who}'s scores on the board ${board}`),
        ),
      ),
      field('Reason (kept in the audit log)', reason),
      error,
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'button danger', type: 'submit' }, 'Remove'),
        h('button', { class: 'button', type: 'button', onclick: close }, 'Cancel'),
      ),
    );
    form.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const why = reason.value.trim();
      if (why.length < 3) {
        error.textContent = 'Give a reason of at least 3 characters.';
        reason.setAttribute('aria-invalid', 'true');
        reason.focus();
        return;
      }
      const body = all.checked
        ? { player_id: row.player_id, board, reason: why }
        : { score_id: row.score_id, reason: why };
      try {
        const { data } = await api<{ removed: unknown[] }>('POST', `/v1/studio/games/${slug}/scores/removals`, {
          body,
        });
        mount(removal);
        await load();
        say(`Removed ${data.removed.length} ${data.removed.length === 1 ? 'score' : 'scores'} of ${who}.`);
        heading.focus();
      } catch (failure) {
        error.textContent = `Refused: ${(failure as ApiError).message}`;
      }
    });
    mount(removal, form);
    form.querySelector<HTMLElement>('h3')!.focus();
  }

  await load();
}
