// /admin: the operator console (staff and admin accounts): players, games, the mail outbox and the audit log, over
// /v1/admin (docs/operations.md, "The operator console"). Anyone else sees a "not allowed" page.
import { api, type ApiError } from '../lib/api.js';
import { type Child, dataTable, h, mount, setTitle, uid } from '../lib/dom.js';
import { requireLogin } from '../lib/session.js';

const VIEWS = [
  ['players', 'Players'],
  ['games', 'Games'],
  ['mail', 'Mail outbox'],
  ['audit', 'Audit log'],
] as const;
type View = (typeof VIEWS)[number][0];

interface Player {
  id: number;
  username: string;
  display_name: string;
  email: string | null;
  guest: boolean;
  role: string;
  status: string;
  membership: { plan: string; unlimited: boolean; ends_at: string | null };
  created_at: string;
}

const params = () => new URLSearchParams(location.search);

function labelled(text: string, control: HTMLInputElement | HTMLSelectElement): HTMLElement {
  control.id ||= uid('f');
  return h('div', { class: 'field' }, h('label', { for: control.id }, text), control);
}

const select = (values: readonly string[], current?: string) =>
  h(
    'select',
    null,
    values.map((v) => h('option', { value: v, selected: v === current }, v)),
  );

export async function adminPage(main: HTMLElement): Promise<void> {
  const who = await requireLogin();
  if (who.player.role !== 'staff' && who.player.role !== 'admin') {
    setTitle('Not allowed');
    mount(
      main,
      h('h1', null, 'Not allowed'),
      h('p', null, "The operator console is for the platform's staff and admin accounts."),
      h('p', null, h('a', { href: '/' }, 'Back to the games')),
    );
    return;
  }
  const view = (VIEWS.find(([v]) => v === params().get('view'))?.[0] ?? 'players') as View;
  setTitle(`Operator console: ${VIEWS.find(([v]) => v === view)![1]}`);
  const status = h('p', { role: 'status', class: 'muted' });
  const body = h('div');
  mount(
    main,
    h('h1', null, 'Operator console'),
    h(
      'nav',
      { 'aria-label': 'Console sections' },
      h(
        'ul',
        { class: 'inline' },
        VIEWS.map(([v, label]) =>
          h('li', null, h('a', { href: `/admin?view=${v}`, 'aria-current': v === view ? 'page' : undefined }, label)),
        ),
      ),
    ),
    status,
    body,
  );
  const say = (text: string) => {
    status.textContent = text;
  };
  const act = async (work: () => Promise<unknown>, done: string, then: () => Promise<void>) => {
    try {
      await work();
      say(done);
      await then();
    } catch (error) {
      say(`Refused: ${(error as ApiError).message}`);
    }
  };
  const reasonInput = () => h('input', { type: 'text', maxlength: 500, autocomplete: 'off' });

  async function players(): Promise<void> {
    const q = h('input', { type: 'search', name: 'q', value: params().get('q') ?? '', required: true });
    const form = h(
      'form',
      { method: 'get', action: '/admin', role: 'search', class: 'inline' },
      h('input', { type: 'hidden', name: 'view', value: 'players' }),
      labelled('Username, email or id', q),
      h('button', { class: 'button', type: 'submit' }, 'Find'),
    );
    const results = h('div');
    const detail = h('div');
    mount(body, h('h2', null, 'Players'), form, results, detail);
    if (q.value) {
      const { data } = await api<{ players: Player[] }>('GET', '/v1/admin/players', { query: { q: q.value } });
      mount(
        results,
        dataTable(
          'Players found',
          ['Username', 'Email', 'Role', 'Status', 'Plan'],
          data.players.map((p) => [
            h('a', { href: `/admin?view=players&q=${encodeURIComponent(q.value)}&player=${p.id}` }, p.username),
            p.email ?? 'guest',
            p.role,
            p.status,
            p.membership.plan,
          ]),
        ),
      );
    }
    const id = Number(params().get('player'));
    if (id > 0) await playerDetail(detail, id);
  }

  async function playerDetail(box: HTMLElement, id: number): Promise<void> {
    const reload = () => playerDetail(box, id);
    const { data } = await api('GET', `/v1/admin/players/${id}`);
    const p = data.player as Player;
    const reason = reasonInput();
    const role = select(['player', 'staff', 'admin'], p.role);
    const plan = select(['free', 'unlimited'], p.membership.plan);
    const until = h('input', { type: 'date' });
    const suspended = p.status === 'suspended';
    const suspendButton = h('button', { class: `button ${suspended ? '' : 'danger'}`, type: 'button' }, [
      suspended ? 'Lift the suspension' : 'Suspend',
    ]);
    suspendButton.addEventListener('click', () =>
      act(
        () =>
          api('POST', `/v1/admin/players/${id}/${suspended ? 'unsuspend' : 'suspend'}`, {
            body: { reason: reason.value || null },
          }),
        suspended ? `${p.username}'s suspension is lifted.` : `${p.username} is suspended; their sessions have ended.`,
        reload,
      ),
    );
    const roleButton = h('button', { class: 'button', type: 'button' }, 'Set the role');
    roleButton.addEventListener('click', () =>
      act(
        () => api('PUT', `/v1/admin/players/${id}/role`, { body: { role: role.value, reason: reason.value || null } }),
        `${p.username} is ${role.value} now.`,
        reload,
      ),
    );
    const planButton = h('button', { class: 'button', type: 'button' }, 'Set the membership');
    planButton.addEventListener('click', () =>
      act(
        () =>
          api('PUT', `/v1/admin/players/${id}/membership`, {
            body: { plan: plan.value, until: until.value || null, reason: reason.value || null },
          }),
        `${p.username}'s membership is changed.`,
        reload,
      ),
    );
    const hours = (s: number) => `${Math.round(s / 60)} min`;
    mount(
      box,
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'player-title' },
        h('h2', { id: 'player-title' }, `${p.display_name} (${p.username})`),
        h(
          'dl',
          null,
          [
            ['Id', String(p.id)],
            ['Email', p.email ?? 'guest'],
            ['Role', p.role],
            ['Status', p.status],
            [
              'Membership',
              p.membership.unlimited
                ? `Unlimited${p.membership.ends_at ? ` until ${p.membership.ends_at}` : ''}`
                : p.membership.plan,
            ],
            ['Joined', p.created_at],
            ['Playtime, 30 days', hours(data.playtime.total_seconds)],
            [
              'Studios',
              data.studios.map((s: { slug: string; role: string }) => `${s.slug} (${s.role})`).join(', ') || 'none',
            ],
          ].map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
        ),
        h('h3', null, 'Actions'),
        labelled('Reason (kept in the audit log)', reason),
        h('div', { class: 'inline' }, suspendButton),
        h('div', { class: 'inline' }, labelled('Role', role), roleButton),
        h(
          'div',
          { class: 'inline' },
          labelled('Plan', plan),
          labelled('Unlimited until (optional)', until),
          planButton,
        ),
        h('h3', null, 'Sessions and tokens'),
        dataTable(
          'Active tokens and web sessions',
          ['Kind', 'Name', 'Prefix', 'Last used', 'Expires'],
          data.tokens.map((t: Record<string, string | null>) => [
            t.kind,
            t.name,
            t.prefix,
            t.last_used_at ?? 'never',
            t.expires_at,
          ]),
        ),
      ),
    );
  }

  async function games(): Promise<void> {
    const { data } = await api('GET', '/v1/admin/games');
    type Row = { slug: string; name: string; status: string; studio: string | null; featured: boolean };
    const rows = data.games.map((g: Row) => {
      const status = select(['draft', 'beta', 'published', 'retired'], g.status);
      status.setAttribute('aria-label', `Status of ${g.name}`);
      const setStatus = h('button', { class: 'button small', type: 'button' }, 'Set');
      setStatus.setAttribute('aria-label', `Set the status of ${g.name}`);
      setStatus.addEventListener('click', () =>
        act(
          () => api('PUT', `/v1/admin/games/${g.slug}/status`, { body: { status: status.value } }),
          `${g.name} is ${status.value} now.`,
          games,
        ),
      );
      const studio = h('input', { type: 'text', value: g.studio ?? '', 'aria-label': `Studio of ${g.name}`, size: 12 });
      const hand = h('button', { class: 'button small', type: 'button' }, 'Hand over');
      hand.setAttribute('aria-label', `Hand over ${g.name} to the studio`);
      hand.addEventListener('click', () =>
        act(
          () => api('PUT', `/v1/admin/games/${g.slug}/studio`, { body: { studio: studio.value.trim() || null } }),
          `${g.name} belongs to ${studio.value.trim() || 'the operators'} now.`,
          games,
        ),
      );
      const feature = h('button', { class: 'button small', type: 'button' }, g.featured ? 'Stop featuring' : 'Feature');
      feature.setAttribute('aria-label', `${g.featured ? 'Stop featuring' : 'Feature'} ${g.name} on the home page`);
      feature.addEventListener('click', () =>
        act(
          () => api(g.featured ? 'DELETE' : 'PUT', `/v1/admin/games/${g.slug}/featured`),
          g.featured ? `${g.name} is no longer featured.` : `${g.name} is featured on the home page.`,
          games,
        ),
      );
      return [
        g.name,
        h('span', { class: 'inline' }, status, setStatus),
        h('span', { class: 'inline' }, studio, hand),
        h('span', { class: 'inline' }, g.featured ? 'Featured ' : '', feature),
      ];
    });
    const studios = await api('GET', '/v1/admin/studios');
    mount(
      body,
      h('h2', null, 'Games'),
      dataTable('Every game', ['Game', 'Status', 'Studio', 'Home page'], rows),
      h('h2', null, 'Studios'),
      dataTable(
        'Every studio',
        ['Slug', 'Name', 'Status'],
        studios.data.studios.map((s: Record<string, string>) => [s.slug, s.name, s.status]),
      ),
    );
  }

  async function mail(): Promise<void> {
    const state = params().get('state') ?? 'failed';
    const filter = select(['failed', 'pending', 'kept'], state);
    filter.name = 'state';
    const form = h(
      'form',
      { method: 'get', action: '/admin', class: 'inline' },
      h('input', { type: 'hidden', name: 'view', value: 'mail' }),
      labelled('Show', filter),
      h('button', { class: 'button', type: 'submit' }, 'Show'),
    );
    const { data } = await api('GET', '/v1/admin/mail', { query: { state } });
    const rows = data.mail.map((m: Record<string, string | number | null>) => {
      let action: Child = '';
      if (m.state === 'failed') {
        const retry = h('button', { class: 'button small', type: 'button' }, 'Retry');
        retry.setAttribute('aria-label', `Retry mail ${m.id} to ${m.to}`);
        retry.addEventListener('click', () =>
          act(() => api('POST', `/v1/admin/mail/${m.id}/retry`), `Mail ${m.id} is sent again.`, mail),
        );
        action = retry;
      }
      return [String(m.id), String(m.to), String(m.subject), String(m.created_at), m.last_error ?? '', action];
    });
    mount(
      body,
      h('h2', null, 'Mail outbox'),
      form,
      dataTable(`${state} mail`, ['Id', 'To', 'Subject', 'Created', 'Last error', 'Action'], rows),
    );
  }

  async function audit(): Promise<void> {
    const p = params();
    const fields = ['q', 'actor', 'action', 'target_type', 'target_id'] as const;
    const labels = { q: 'Words', actor: 'Actor', action: 'Action', target_type: 'Target type', target_id: 'Target id' };
    const inputs = fields.map((f) => h('input', { type: 'text', name: f, value: p.get(f) ?? '' }));
    const form = h(
      'form',
      { method: 'get', action: '/admin', role: 'search' },
      h('input', { type: 'hidden', name: 'view', value: 'audit' }),
      fields.map((f, i) => labelled(labels[f], inputs[i]!)),
      h('button', { class: 'button', type: 'submit' }, 'Search'),
    );
    const query: Record<string, string> = {};
    for (const f of [...fields, 'before']) if (p.get(f)) query[f] = p.get(f)!;
    const { data } = await api('GET', '/v1/admin/audit', { query });
    const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
    const rows = data.entries.map((e: Record<string, any>) => [
      e.at.replace('T', ' ').slice(0, 19),
      e.actor.name,
      e.action,
      `${e.target.type} ${e.target.id}`,
      e.reason ?? '',
      `${show(e.before)} → ${show(e.after)}`,
    ]);
    let older: Child = null;
    if (data.next_before !== null) {
      const next = new URLSearchParams(p);
      next.set('before', String(data.next_before));
      older = h('p', null, h('a', { href: `/admin?${next}` }, 'Older entries'));
    }
    mount(
      body,
      h('h2', null, 'Audit log'),
      form,
      dataTable(
        'Audit entries, newest first',
        ['When (UTC)', 'Who', 'What', 'Target', 'Reason', 'Before → after'],
        rows,
      ),
      older,
    );
  }

  await { players, games, mail, audit }[view]();
}
