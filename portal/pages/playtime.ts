// The player's playtime: today against the allowance, and a bar chart of the history (inline SVG, with the numbers as a table too).
import { formatNumber, formatTimestamp } from '../layout.js';
import { api } from '../lib/api.js';
import { h, mount, setTitle, svg, uid } from '../lib/dom.js';
import { requireLogin } from '../lib/session.js';
import { formatDuration, formatExactDuration } from '../shell/schedule.js';

interface Day {
  day: string;
  seconds: number;
  sessions: number;
}

interface Playtime {
  today: GamePlatform.Entitlement;
  total_seconds: number;
  history: Day[];
}

const RANGES = [7, 14, 30, 90];

export async function playtimePage(main: HTMLElement): Promise<void> {
  await requireLogin();
  setTitle('Your playtime');
  let days = Number(new URLSearchParams(location.search).get('days')) || 14;
  if (!RANGES.includes(days)) days = 14;

  const summary = h('div', { class: 'stats' });
  const chart = h('figure', { class: 'chart' });
  const table = h('details', { class: 'chart-table' });
  const rangeId = uid('range');
  const range = h(
    'select',
    { id: rangeId },
    RANGES.map((n) => h('option', { value: n, selected: n === days }, `Last ${n} days`)),
  );
  range.addEventListener('change', () => {
    days = Number(range.value);
    void load();
  });
  mount(
    main,
    h('h1', null, 'Your playtime'),
    summary,
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'history-title' },
      h(
        'div',
        { class: 'panel-head' },
        h('h2', { id: 'history-title' }, 'History'),
        h('div', { class: 'inline' }, h('label', { for: rangeId }, 'Show'), range),
      ),
      chart,
      table,
    ),
  );

  async function load(): Promise<void> {
    const url = new URL(location.href);
    url.searchParams.set('days', String(days));
    history.replaceState(null, '', url);
    const { data } = await api<Playtime>('GET', '/v1/me/playtime', { query: { days } });
    const t = data.today;
    mount(
      summary,
      todayFigures(t).map(([label, value]) => stat(label, value)),
      stat('Resets in', formatDuration(t.resets_in_seconds)),
      stat(`Last ${days} days`, formatDuration(data.total_seconds)),
    );
    const oldestFirst = [...data.history].sort((a, b) => a.day.localeCompare(b.day));
    mount(
      chart,
      barChart(oldestFirst, t.unlimited ? null : t.allowance_seconds),
      h(
        'figcaption',
        null,
        `Minutes played per day, last ${days} days (${formatDuration(data.total_seconds)} in all).`,
      ),
    );
    mount(
      table,
      h('summary', null, 'Show the numbers'),
      h(
        'table',
        null,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Day'),
            h('th', { scope: 'col', class: 'num' }, 'Played'),
            h('th', { scope: 'col', class: 'num' }, 'Sessions'),
          ),
        ),
        h(
          'tbody',
          null,
          data.history.map((d) =>
            h(
              'tr',
              null,
              h('td', null, formatTimestamp(d.day)),
              h('td', { class: 'num' }, formatDuration(d.seconds)),
              h('td', { class: 'num' }, formatNumber(d.sessions)),
            ),
          ),
        ),
      ),
    );
  }
  await load();
}

/**
 * Played, left and the allowance today, to the second: rounded each on its own, "1 min" played and "13 min" left of
 * "15 min" would not add up.
 */
export function todayFigures(t: GamePlatform.Entitlement): Array<[string, string]> {
  if (t.unlimited || t.remaining_seconds === null)
    return [
      ['Played today', formatDuration(t.used_seconds)],
      ['Left today', 'No limit'],
      ['Plan', 'Unlimited'],
    ];
  return [
    ['Played today', formatExactDuration(t.used_seconds)],
    ['Left today', formatExactDuration(t.remaining_seconds)],
    ['Daily allowance', formatExactDuration(t.allowance_seconds)],
  ];
}

function stat(label: string, value: string): HTMLElement {
  return h(
    'div',
    { class: 'stat' },
    h('span', { class: 'stat-label' }, label),
    h('span', { class: 'stat-value' }, value),
  );
}

/** Space between the centres of two day labels on the chart, in px. */
const LABEL_GAP = 72;

/** "2026-11-28" → "28 Nov": the site's date (formatTimestamp) without the year, for the chart's axis. */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** One bar per day; a dashed line marks the free allowance. */
function barChart(history: Day[], allowanceSeconds: number | null): SVGSVGElement {
  // Drawn at about the width it is shown at, so that its 12px labels stay 12px on a phone instead of shrinking to 6.
  const shown = document.getElementById('main')?.clientWidth ?? 640;
  const width = Math.round(Math.min(640, Math.max(280, shown - 60)));
  const height = 220;
  const pad = { top: 12, right: 8, bottom: 28, left: 40 };
  const maxMinutes = Math.max(1, ...history.map((d) => d.seconds / 60), allowanceSeconds ? allowanceSeconds / 60 : 0);
  const niceMax =
    [1, 2, 5, 10, 15, 30, 60, 120, 180, 240, 360, 720, 1440].find((m) => m >= maxMinutes) ?? Math.ceil(maxMinutes);
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const step = innerW / Math.max(1, history.length);
  const y = (minutes: number) => pad.top + innerH - (minutes / niceMax) * innerH;
  const total = history.reduce((a, d) => a + d.seconds, 0);
  const busiest = history.reduce<Day | null>((best, d) => (!best || d.seconds > best.seconds ? d : best), null);
  const day = (d: Day | undefined) => (d ? formatTimestamp(d.day) : '');
  const label = `Bar chart of minutes played per day from ${day(history[0])} to ${day(history.at(-1))}: ${formatDuration(total)} in all${busiest?.seconds ? `, most on ${day(busiest)} (${formatDuration(busiest.seconds)})` : ''}.`;
  // Day labels ("28 Nov", about 45px wide) at least LABEL_GAP apart, counted back from today's, which always has one.
  const labelEvery = Math.max(1, Math.ceil(LABEL_GAP / step));

  return svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'aria-label': label,
      class: 'bars',
      preserveAspectRatio: 'xMidYMid meet',
    },
    [0, niceMax / 2, niceMax].map((m) => [
      svg('line', { x1: pad.left, x2: width - pad.right, y1: y(m), y2: y(m), class: 'grid' }),
      svg(
        'text',
        { x: pad.left - 6, y: y(m) + 4, 'text-anchor': 'end', class: 'axis' },
        `${Number.isInteger(m) ? m : m.toFixed(1)}m`,
      ),
    ]),
    history.map((d, i) => {
      const minutes = d.seconds / 60;
      const barH = Math.max(d.seconds > 0 ? 2 : 0, (minutes / niceMax) * innerH);
      const x = pad.left + i * step + step * 0.15;
      return svg(
        'g',
        null,
        svg(
          'rect',
          { x, y: pad.top + innerH - barH, width: step * 0.7, height: barH, rx: 2, class: 'bar' },
          svg('title', null, `${day(d)}: ${formatDuration(d.seconds)}, ${d.sessions} sessions`),
        ),
        (history.length - 1 - i) % labelEvery === 0
          ? svg(
              'text',
              // today's label ends at its bar's right edge, so that it stays inside the chart
              i === history.length - 1
                ? { x: x + step * 0.7, y: height - 8, 'text-anchor': 'end', class: 'axis day' }
                : { x: x + step * 0.35, y: height - 8, 'text-anchor': 'middle', class: 'axis day' },
              shortDay(d.day),
            )
          : null,
      );
    }),
    allowanceSeconds
      ? svg(
          'line',
          {
            x1: pad.left,
            x2: width - pad.right,
            y1: y(allowanceSeconds / 60),
            y2: y(allowanceSeconds / 60),
            class: 'allowance',
          },
          svg('title', null, 'Free daily allowance'),
        )
      : null,
  );
}
