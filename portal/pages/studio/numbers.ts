// The studio console's Numbers view: a game's numbers per day over 7, 30 or 90 days (GET /v1/studio/games/{slug}/numbers,
// docs/api.md, "Studio console: numbers, moderation, audit log"), drawn with uPlot (portal/charts.ts, loaded here on
// first use) and shown as tables too, each with its CSV; the whole export from numbers.csv.
import type { components } from '../../../packages/client/src/schema.js';
import type { Charts, DrawnChart, LineChartSpec } from '../../charts.js';
import { SDK_HEADER, api, failureOf, send } from '../../lib/api.js';
import { dataTable, h, mount, uid } from '../../lib/dom.js';

export const SPANS = [7, 30, 90] as const;

/** A day of the numbers and the whole answer, as the API documents them (the typed client's schema). */
export type NumbersDay = components['schemas']['GameNumbersDay'];
type GameNumbers = components['schemas']['GameNumbers'];
type Field = Exclude<keyof NumbersDay, 'day'>;

interface ChartDef {
  /** names the chart's CSV file */
  key: string;
  title: string;
  unit: LineChartSpec['unit'];
  /** the lines drawn */
  lines: Array<[Field, string]>;
  /** the table's columns after the day (default: the lines) */
  columns?: Array<[Field, string]>;
}

/** The charts, from the API's fields (docs/api.md, "Studio console: numbers, moderation, audit log"). */
const CHARTS: ChartDef[] = [
  {
    key: 'plays',
    title: 'Plays and players',
    unit: 'count',
    lines: [
      ['plays', 'Plays'],
      ['players', 'Players'],
    ],
  },
  { key: 'playtime', title: 'Playtime', unit: 'seconds', lines: [['playtime_seconds', 'Playtime (seconds)']] },
  {
    key: 'session-length',
    title: 'Average session length',
    unit: 'seconds',
    lines: [['average_session_seconds', 'Average session (seconds)']],
  },
  {
    key: 'new-returning',
    title: 'New and returning players',
    unit: 'count',
    lines: [
      ['new_players', 'New players'],
      ['returning_players', 'Returning players'],
    ],
  },
  {
    key: 'retention',
    title: 'Retention of new players',
    unit: 'share',
    lines: [
      ['day1_retention', 'Day 1'],
      ['day7_retention', 'Day 7'],
    ],
    columns: [
      ['new_players', 'New players'],
      ['day1_returned', 'Back on day 1'],
      ['day1_retention', 'Day 1 retention'],
      ['day7_returned', 'Back on day 7'],
      ['day7_retention', 'Day 7 retention'],
    ],
  },
  {
    key: 'scores-saves',
    title: 'Scores and saves',
    unit: 'count',
    lines: [
      ['scores_submitted', 'Scores submitted'],
      ['saves_written', 'Saves written'],
    ],
  },
  {
    key: 'limit',
    title: 'Sessions ended by the free limit',
    unit: 'share',
    lines: [['limit_share', 'Share of sessions']],
    columns: [
      ['sessions', 'Sessions'],
      ['limit_ended_sessions', 'Ended by the limit'],
      ['limit_share', 'Share'],
    ],
  },
  {
    key: 'guests-accounts',
    title: 'Guests and accounts',
    unit: 'count',
    lines: [
      ['guests', 'Guests'],
      ['accounts', 'Accounts'],
    ],
  },
];

const SHARES = new Set<Field>(['day1_retention', 'day7_retention', 'limit_share']);

/** A cell as the table shows it: counts and seconds as the API gives them, shares as percentages. */
function cell(field: Field, value: number | null): string {
  if (value === null) return 'not known yet';
  return SHARES.has(field) ? `${(value * 100).toFixed(1)}%` : String(value);
}

/** RFC 4180 text of some of the columns, as numbers.csv writes them (an unknown retention is an empty field). */
function csvOf(days: NumbersDay[], fields: Field[]): string {
  const lines = [['day', ...fields].join(',')];
  for (const d of days) lines.push([d.day, ...fields.map((f) => (d[f] === null ? '' : String(d[f])))].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

let loading: Promise<Charts> | undefined;

/** The charts' script and stylesheet (their names are in <body data-charts-script/-style>), loaded once. */
function loadCharts(): Promise<Charts> {
  if (window.gpCharts) return Promise.resolve(window.gpCharts);
  const { chartsScript, chartsStyle } = document.body.dataset;
  if (!chartsScript || !chartsStyle) return Promise.reject(new Error('The charts are not built.'));
  loading ??= new Promise<Charts>((resolve, reject) => {
    document.head.append(h('link', { rel: 'stylesheet', href: chartsStyle }));
    const script = h('script', { src: chartsScript });
    script.addEventListener('load', () =>
      window.gpCharts ? resolve(window.gpCharts) : reject(new Error('The charts did not start.')),
    );
    script.addEventListener('error', () => {
      loading = undefined;
      reject(new Error('The charts could not be loaded.'));
    });
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Saves a file the API answers (numbers.csv needs the portal's header, so a plain link would not do). */
async function download(url: string, fallbackName: string): Promise<string> {
  const response = await send(url, { headers: { ...SDK_HEADER, Accept: 'text/csv' }, credentials: 'same-origin' });
  if (!response.ok) throw await failureOf(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const href = URL.createObjectURL(await response.blob());
  const link = h('a', { href, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return name;
}

const spanOf = (value: string | null): number => {
  const n = Number(value);
  return (SPANS as readonly number[]).includes(n) ? n : 30;
};

/** The Numbers view of one game in `body`; `say` speaks through the console's status line. */
export async function numbersView(
  body: HTMLElement,
  game: { slug: string; name: string },
  say: (text: string) => void,
): Promise<void> {
  let days = spanOf(new URLSearchParams(location.search).get('days'));
  const base = `/v1/studio/games/${encodeURIComponent(game.slug)}`;
  const pickId = uid('span');
  const pick = h(
    'select',
    { id: pickId },
    SPANS.map((n) => h('option', { value: n, selected: n === days }, `Last ${n} days`)),
  );
  const exportButton = h('button', { class: 'button', type: 'button' }, 'Download all numbers (CSV)');
  const about = h('p', { class: 'muted' });
  const content = h('div');
  mount(
    body,
    h(
      'div',
      { class: 'panel-head' },
      h('h2', null, 'Numbers'),
      h('div', { class: 'inline' }, h('label', { for: pickId }, 'Period'), pick, exportButton),
    ),
    about,
    content,
  );

  let drawn: DrawnChart[] = [];
  const blobs: string[] = [];
  async function load(): Promise<void> {
    const url = new URL(location.href);
    url.searchParams.set('days', String(days));
    history.replaceState(null, '', url);
    content.setAttribute('aria-busy', 'true');
    const { data } = await api<GameNumbers>('GET', `${base}/numbers`, { query: { days } });
    for (const chart of drawn) chart.destroy();
    drawn = [];
    for (const href of blobs.splice(0)) URL.revokeObjectURL(href);
    about.textContent = `${data.from} to ${data.to}, one row a day in ${data.timezone}; today is still counting.`;
    const total = (field: Field) => data.days.reduce((sum, d) => sum + (d[field] ?? 0), 0);
    const targets: Array<[HTMLElement, ChartDef]> = [];
    mount(
      content,
      h(
        'div',
        { class: 'stats' },
        stat(`Plays, last ${days} days`, String(total('plays'))),
        stat('Playtime', `${Math.round(total('playtime_seconds') / 60)} min`),
        stat('New players', String(total('new_players'))),
        stat('Scores submitted', String(total('scores_submitted'))),
      ),
      h(
        'div',
        { class: 'studio-charts' },
        CHARTS.map((chart) => {
          const titleId = uid('chart');
          const target = h('div', { class: 'studio-chart', 'aria-hidden': 'true' });
          targets.push([target, chart]);
          const columns = chart.columns ?? chart.lines;
          const href = URL.createObjectURL(
            new Blob(
              [
                csvOf(
                  data.days,
                  columns.map(([f]) => f),
                ),
              ],
              { type: 'text/csv' },
            ),
          );
          blobs.push(href);
          return h(
            'section',
            { class: 'panel studio-chart-panel', 'aria-labelledby': titleId },
            h('h3', { id: titleId }, chart.title),
            target,
            h(
              'details',
              { class: 'chart-table' },
              h('summary', { 'aria-label': `Show the numbers: ${chart.title}` }, 'Show the numbers'),
              dataTable(
                `${chart.title}, ${data.from} to ${data.to}`,
                ['Day', ...columns.map(([, label]) => label)],
                data.days.map((d) => [d.day, ...columns.map(([f]) => cell(f, d[f]))]),
              ),
            ),
            h(
              'p',
              null,
              h(
                'a',
                {
                  href,
                  download: `${data.game}-${chart.key}-${days}d.csv`,
                  'aria-label': `Download as CSV: ${chart.title}`,
                },
                'Download as CSV',
              ),
            ),
          );
        }),
      ),
    );
    content.removeAttribute('aria-busy');
    try {
      const charts = await loadCharts();
      drawn = targets.map(([target, chart]) =>
        charts.lineChart(target, {
          labels: data.days.map((d) => d.day),
          unit: chart.unit,
          series: chart.lines.map(([field, label]) => ({ label, values: data.days.map((d) => d[field]) })),
        }),
      );
    } catch (error) {
      say(`${(error as Error).message} The numbers are in the tables.`);
    }
  }

  pick.addEventListener('change', () => {
    days = spanOf(pick.value);
    void load().catch((error: Error) => say(`The numbers could not be read: ${error.message}`));
  });
  exportButton.addEventListener('click', async () => {
    exportButton.disabled = true;
    try {
      const name = await download(`${base}/numbers.csv?days=${days}`, `${game.slug}-numbers-${days}d.csv`);
      say(`Downloaded ${name}.`);
    } catch (error) {
      say(`The download failed: ${(error as Error).message}`);
    } finally {
      exportButton.disabled = false;
    }
  });
  await load();
}

function stat(label: string, value: string): HTMLElement {
  return h(
    'div',
    { class: 'stat' },
    h('span', { class: 'stat-label' }, label),
    h('span', { class: 'stat-value' }, value),
  );
}
