// Account settings: profile fields, avatar with a preview, email and membership, the signed-in browsers and the API tokens.
import { avatar, formatTimestamp } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { countryOptions } from '../lib/countries.js';
import { h, mount, setTitle, uid } from '../lib/dom.js';
import { createForm, field } from '../lib/forms.js';
import { isGuest, me, requireLogin, type Me, type OwnPlayer } from '../lib/session.js';
import { guestOffer } from './guest.js';
import { formatDuration } from '../shell/schedule.js';
import { yourGamesSection } from './shelves.js';
import {
  deleteSection,
  emailSection,
  exportSection,
  passwordSection,
  resendVerificationButton,
} from './account-self-service.js';

const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export async function accountPage(main: HTMLElement): Promise<void> {
  const who = await requireLogin();
  setTitle('Account settings');
  if (isGuest(who))
    return mount(main, h('h1', null, 'Account settings'), guestSection(who), yourGamesSection(), exportSection());
  mount(
    main,
    h('h1', null, 'Account settings'),
    h('p', null, h('a', { href: `/u/${encodeURIComponent(who.player.username)}` }, 'See your public profile')),
    h(
      'nav',
      { class: 'page-nav', 'aria-label': 'On this page' },
      h(
        'ul',
        null,
        GROUPS.map(([id, title]) => h('li', null, h('a', { href: `#${id}` }, title))),
      ),
    ),
    group('profile', profileSection(who.player), avatarSection(who.player), accountSection(who)),
    group('security', sessionsSection(), passwordSection(), emailSection(who.player), tokensSection()),
    group('your-data', yourGamesSection(), exportSection(), deleteSection(main)),
  );
  // The sections arrive after the browser looked for the URL's #fragment: go to it now.
  const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  target?.scrollIntoView();
}

/** The page's parts, in the in-page navigation and as the ids of their groups (/account#security). */
const GROUPS: Array<[string, string]> = [
  ['profile', 'Profile'],
  ['security', 'Security'],
  ['your-data', 'Your data'],
];

/** The sections of one part of the page, under the id the navigation links to. */
function group(id: string, ...sections: HTMLElement[]): HTMLElement {
  return h('div', { class: 'page-group', id }, ...sections);
}

/** The generated initials picture (not one the player uploaded): nothing to remove. */
function isInitialsAvatar(url: string): boolean {
  return new URL(url, location.origin).pathname.startsWith('/avatars/initials/');
}

/** A guest has no profile, email or password yet: what it is, and the two ways to an account that keeps its progress. */
function guestSection(who: Me): HTMLElement {
  return section(
    'You are playing as a guest',
    h(
      'p',
      null,
      `${who.player.display_name} is a guest player made for this browser: no email, no password, no public profile. It keeps your time, saves and scores in this browser until you create an account, and is removed after some weeks without play.`,
    ),
    guestOffer(),
  );
}

function section(title: string, ...children: Array<Node | null>): HTMLElement {
  const id = uid('section');
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

function profileSection(player: OwnPlayer): HTMLElement {
  let saved = { ...player };
  const form = createForm({
    label: 'Profile',
    submitLabel: 'Save profile',
    fields: [
      {
        name: 'display_name',
        label: 'Display name',
        value: player.display_name,
        required: true,
        minlength: 2,
        maxlength: 40,
        autocomplete: 'nickname',
      },
      {
        name: 'username',
        label: 'Username',
        value: player.username,
        required: true,
        minlength: 3,
        maxlength: 32,
        pattern: '[A-Za-z0-9_]{3,32}',
        patternMessage: 'Use 3–32 letters, digits or _',
        autocomplete: 'username',
        hint: 'Letters, digits and _. Your profile lives at /u/<username>.',
      },
      {
        name: 'bio',
        label: 'Bio',
        type: 'textarea',
        value: player.bio ?? '',
        maxlength: 300,
        hint: 'Up to 300 characters. Leave empty to remove it.',
      },
      {
        name: 'country',
        label: 'Country',
        type: 'select',
        value: player.country ?? '',
        options: [['', 'Not shown'], ...countryOptions()],
      },
      { name: 'newsletter', label: 'Send me the newsletter', type: 'checkbox', value: player.newsletter },
    ],
    async onSubmit(values) {
      const changes: Record<string, unknown> = {};
      if (values.display_name !== saved.display_name) changes.display_name = values.display_name;
      if (values.username !== saved.username) changes.username = values.username;
      if (values.bio !== (saved.bio ?? '')) changes.bio = values.bio;
      if (values.country !== (saved.country ?? '')) changes.country = values.country || null;
      if (values.newsletter !== saved.newsletter) changes.newsletter = values.newsletter;
      if (!Object.keys(changes).length) return 'Nothing to save: no field changed.';
      const { data } = await api<OwnPlayer | { player: OwnPlayer }>('PATCH', '/v1/me', { body: changes });
      saved = { ...saved, ...('player' in data ? data.player : data) };
      void me(true);
      return 'Profile saved.';
    },
  });
  return section('Profile', form.form);
}

function avatarSection(player: OwnPlayer): HTMLElement {
  const current = avatar(player.avatar_url, 96, 'Your current avatar');
  const preview = h('img', { class: 'avatar preview', alt: '', width: 96, height: 96, hidden: true });
  const file = field({
    name: 'avatar',
    label: 'New picture',
    type: 'file',
    accept: AVATAR_TYPES.join(','),
    hint: 'JPG, PNG, GIF or WebP, at most 2 MB. It is cropped to a square.',
  });
  const status = h('p', { class: 'form-status', role: 'status' });
  const upload = h('button', { type: 'submit', class: 'button primary', disabled: true }, 'Upload');
  // Offered only for an uploaded picture: the initials are what removing one comes back to.
  const remove = h(
    'button',
    { type: 'button', class: 'button', hidden: isInitialsAvatar(player.avatar_url) },
    'Remove picture',
  );
  const input = file.control as HTMLInputElement;
  let previewUrl: string | null = null;

  const chosen = (): File | null => input.files?.[0] ?? null;
  let picks = 0;
  input.addEventListener('change', () => {
    file.setError(null);
    status.textContent = '';
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = null;
    preview.hidden = true;
    upload.disabled = true; // until the file is known to be a picture this browser can show
    const picked = chosen();
    const pick = ++picks;
    if (!picked) return;
    if (!AVATAR_TYPES.includes(picked.type)) return file.setError('New picture must be a JPG, PNG, GIF or WebP image');
    if (picked.size > AVATAR_MAX_BYTES) return file.setError('New picture must be at most 2 MB');
    const url = URL.createObjectURL(picked);
    // A name ending in .png says nothing of the content: decode it first, and offer Upload only for a real picture.
    const probe = new Image();
    probe.src = url;
    probe.decode().then(
      () => {
        if (pick !== picks) return URL.revokeObjectURL(url);
        previewUrl = url;
        preview.src = url;
        preview.alt = 'Preview of the new avatar';
        preview.hidden = false;
        upload.disabled = false;
      },
      () => {
        URL.revokeObjectURL(url);
        if (pick === picks)
          file.setError(
            `New picture: “${picked.name}” cannot be read as an image. Choose a JPG, PNG, GIF or WebP picture`,
          );
      },
    );
  });

  const form = h(
    'form',
    { class: 'avatar-form', 'aria-label': 'Avatar' },
    h('div', { class: 'avatar-row' }, current, preview),
    file.wrapper,
    h('div', { class: 'actions' }, upload, remove),
    status,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const picked = chosen();
    if (!picked) return file.setError('New picture: choose a file first');
    if (input.getAttribute('aria-invalid')) return input.focus();
    const body = new FormData();
    body.append('avatar', picked);
    upload.disabled = true;
    try {
      const { data } = await api<{ avatar_url: string }>('POST', '/v1/me/avatar', { form: body });
      current.src = data.avatar_url;
      remove.hidden = false;
      input.value = '';
      preview.hidden = true;
      status.textContent = 'Avatar updated.';
      void me(true); // the header shows the new picture
    } catch (error) {
      file.setError(
        `New picture: ${error instanceof ApiError && error.code === 'payload_too_large' ? 'the file is over 2 MB' : error instanceof ApiError && error.code === 'unsupported_media_type' ? 'the file is not a JPG, PNG, GIF or WebP image' : (error as Error).message}`,
      );
      input.focus();
    } finally {
      upload.disabled = !chosen() || preview.hidden;
    }
  });
  remove.addEventListener('click', async () => {
    try {
      const { data } = await api<{ avatar_url: string }>('DELETE', '/v1/me/avatar');
      current.src = data.avatar_url;
      remove.hidden = true;
      input.focus(); // the button that had the focus is gone
      status.textContent = 'Avatar removed: your initials are shown instead.';
      void me(true);
    } catch (error) {
      status.textContent = `The picture could not be removed: ${(error as Error).message}`;
    }
  });
  return section('Avatar', form);
}

function accountSection(who: Me): HTMLElement {
  const { player, membership, entitlement } = who;
  const plan = membership.unlimited ? 'Unlimited' : 'Free';
  return section(
    'Email and membership',
    h(
      'dl',
      { class: 'details' },
      h('dt', null, 'Email'),
      h(
        'dd',
        null,
        player.email,
        ' ',
        player.email_verified
          ? h('span', { class: 'badge ok' }, 'Verified')
          : h('span', { class: 'badge warn' }, 'Not verified yet: check your inbox for the link'),
        player.email_verified ? null : resendVerificationButton(),
      ),
      h('dt', null, 'Plan'),
      h(
        'dd',
        null,
        plan,
        membership.ends_at
          ? ` (ends ${formatTimestamp(membership.ends_at)})`
          : membership.renews_at
            ? ` (renews ${formatTimestamp(membership.renews_at)})`
            : '',
      ),
      h('dt', null, 'Daily play time'),
      h(
        'dd',
        null,
        entitlement.unlimited ? 'No limit' : `${formatDuration(entitlement.allowance_seconds)} a day`,
        ' · ',
        h('a', { href: '/playtime' }, 'See your playtime'),
      ),
      h('dt', null, 'Member since'),
      h('dd', null, formatTimestamp(player.member_since)),
    ),
  );
}

interface SessionRow {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
  token_expires_at: string;
  current: boolean;
}

/** The browsers where the player is logged in to the portal (web sessions), apart from the API tokens. */
function sessionsSection(): HTMLElement {
  const list = h('div', { class: 'table-wrap' });
  const status = h('p', { class: 'form-status', role: 'status', tabindex: -1 });
  const others = h('button', { type: 'button', class: 'button' }, 'Sign out all other browsers');
  // hidden on a wrapper: .actions and .button set a display of their own, which outranks the hidden attribute
  const othersRow = h('div', { hidden: true }, h('div', { class: 'actions' }, others));
  let armedOthers = false;

  async function refresh(): Promise<void> {
    const { data } = await api<{ sessions: SessionRow[] }>('GET', '/v1/me/sessions');
    // This browser first, then the others as the API lists them (newest first).
    const rows = [...data.sessions.filter((s) => s.current), ...data.sessions.filter((s) => !s.current)];
    othersRow.hidden = !rows.some((s) => !s.current);
    armedOthers = false;
    others.textContent = 'Sign out all other browsers';
    if (!rows.length) return mount(list, h('p', { class: 'empty' }, 'No browser is signed in.'));
    mount(
      list,
      h(
        'table',
        { class: 'tokens sessions' },
        h('caption', null, 'Signed-in browsers'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Browser'),
            h('th', { scope: 'col', class: 'hide-narrow' }, 'Signed in'),
            h('th', { scope: 'col' }, 'Last used'),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
          ),
        ),
        h('tbody', null, rows.map(sessionRow)),
      ),
    );
  }

  function sessionRow(session: SessionRow): HTMLElement {
    // The accessible name starts with the visible words (WCAG 2.5.3) and says which browser.
    const which = session.current
      ? 'this browser'
      : `${session.name}, last used ${session.last_used_at ? formatTimestamp(session.last_used_at, true) : 'never'}`;
    const signOut = h(
      'button',
      { type: 'button', class: 'button small danger', 'aria-label': `Sign out ${which}` },
      'Sign out',
    );
    let armed = false;
    signOut.addEventListener('click', async () => {
      // A second click confirms.
      if (!armed) {
        armed = true;
        signOut.textContent = 'Confirm';
        signOut.setAttribute('aria-label', `Confirm: sign out ${which}`);
        return;
      }
      signOut.disabled = true;
      try {
        await api('DELETE', `/v1/me/sessions/${session.id}`);
      } catch (error) {
        signOut.disabled = false;
        status.textContent = `“${session.name}” could not be signed out: ${(error as Error).message}`;
        return;
      }
      if (session.current) return location.assign('/login');
      status.textContent = `“${session.name}” signed out.`;
      await refresh();
      // The row is gone with its button: the status line that says so takes the focus, not <body>.
      status.focus();
    });
    return h(
      'tr',
      { 'data-session-id': session.id, class: session.current ? 'current' : null },
      h('th', { scope: 'row' }, session.name, session.current ? h('span', { class: 'badge' }, 'This browser') : null),
      h('td', { class: 'hide-narrow' }, formatTimestamp(session.created_at, true)),
      h(
        'td',
        null,
        session.current ? 'Now' : session.last_used_at ? formatTimestamp(session.last_used_at, true) : 'Never',
      ),
      h('td', { class: 'action' }, signOut),
    );
  }

  others.addEventListener('click', async () => {
    if (!armedOthers) {
      armedOthers = true;
      others.textContent = 'Confirm: sign out all other browsers';
      return;
    }
    others.disabled = true;
    try {
      const { data } = await api<{ revoked: number }>('DELETE', '/v1/me/sessions');
      status.textContent =
        data.revoked === 1 ? '1 other browser signed out.' : `${data.revoked} other browsers signed out.`;
      await refresh();
    } catch (error) {
      status.textContent = `The other browsers could not be signed out: ${(error as Error).message}`;
    } finally {
      others.disabled = false;
    }
  });

  void refresh().catch((error: unknown) =>
    mount(list, h('p', { class: 'form-error', role: 'alert' }, (error as Error).message)),
  );
  const result = section(
    'Signed-in browsers',
    h(
      'p',
      null,
      'Where you are logged in to this site. Up to 10 browsers stay signed in; signing in on an eleventh signs out the one used longest ago, and tells you so. They do not count among your API tokens.',
    ),
    list,
    othersRow,
    status,
  );
  result.id = 'signed-in-browsers';
  return result;
}

interface TokenRow {
  id: number;
  kind: 'api' | 'web';
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  token_expires_at: string;
  current: boolean;
}

function tokensSection(): HTMLElement {
  const list = h('div', { class: 'table-wrap' });
  const status = h('p', { class: 'form-status', role: 'status' });
  const reveal = h('div', { class: 'token-reveal', hidden: true });
  /** the token whose value the box shows: the box goes once that token is gone (revoked here or elsewhere) */
  let revealedId: number | null = null;

  function hideReveal(): void {
    revealedId = null;
    reveal.hidden = true;
    mount(reveal);
  }

  async function refresh(): Promise<void> {
    // The API lists browsers too (kind 'web'): they have their own section above.
    const tokens = (await api<{ tokens: TokenRow[] }>('GET', '/v1/me/tokens')).data.tokens.filter(
      (t) => t.kind === 'api',
    );
    if (revealedId !== null && !tokens.some((t) => t.id === revealedId)) hideReveal();
    if (!tokens.length) return mount(list, h('p', { class: 'empty' }, 'No active tokens.'));
    mount(
      list,
      h(
        'table',
        { class: 'tokens' },
        h('caption', null, 'Active tokens'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'Name'),
            h('th', { scope: 'col' }, 'Starts with'),
            h('th', { scope: 'col', class: 'hide-narrow' }, 'Last used'),
            h('th', { scope: 'col', class: 'hide-narrow' }, 'Expires'),
            h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')),
          ),
        ),
        h('tbody', null, tokens.map(tokenRow)),
      ),
    );
  }

  function tokenRow(token: TokenRow): HTMLElement {
    const revoke = h(
      'button',
      { type: 'button', class: 'button small danger', 'aria-label': `Revoke ${token.name}` },
      'Revoke',
    );
    let armed = false;
    revoke.addEventListener('click', async () => {
      // A second click confirms: revoking breaks whatever uses the token (this browser, for the current one).
      if (!armed) {
        armed = true;
        revoke.textContent = token.current ? 'Confirm: log out here' : 'Confirm revoke';
        return;
      }
      revoke.disabled = true;
      await api('DELETE', `/v1/me/tokens/${token.id}`);
      if (token.current) return location.assign('/login');
      if (token.id === revealedId) hideReveal();
      status.textContent = `Token “${token.name}” revoked.`;
      await refresh();
    });
    return h(
      'tr',
      { 'data-token-id': token.id },
      h('th', { scope: 'row' }, token.name, token.current ? h('span', { class: 'badge' }, 'this browser') : null),
      h('td', null, h('code', null, `${token.prefix}…`)),
      h('td', { class: 'hide-narrow' }, token.last_used_at ? formatTimestamp(token.last_used_at, true) : 'Never'),
      h(
        'td',
        { class: 'hide-narrow' },
        new Date(token.token_expires_at).toLocaleDateString('en-GB', { dateStyle: 'medium' }),
      ),
      h('td', { class: 'action' }, revoke),
    );
  }

  const create = createForm({
    label: 'Create a token',
    submitLabel: 'Create token',
    fields: [
      {
        name: 'name',
        label: 'Token name',
        required: true,
        maxlength: 100,
        hint: 'What will use it, for example “stats script”.',
      },
    ],
    async onSubmit(values, handle) {
      const { data } = await api<{ id: number; name: string; token: string; token_expires_at: string }>(
        'POST',
        '/v1/me/tokens',
        { body: { name: values.name } },
      );
      const value = h('input', {
        class: 'token-value',
        id: 'new-token',
        readonly: true,
        value: data.token,
        'aria-describedby': 'new-token-hint',
      });
      const copy = h('button', { type: 'button', class: 'button small' }, 'Copy');
      copy.addEventListener('click', () => {
        value.select();
        void navigator.clipboard?.writeText(data.token).then(() => (copy.textContent = 'Copied'));
      });
      mount(
        reveal,
        h('label', { for: 'new-token' }, `Your new token “${data.name}”`),
        h('div', { class: 'inline' }, value, copy),
        h(
          'p',
          { class: 'hint', id: 'new-token-hint' },
          'Copy it now: it is shown only once. Send it as Authorization: Bearer <token>.',
        ),
      );
      reveal.hidden = false;
      revealedId = data.id;
      (handle.fields.get('name')!.control as HTMLInputElement).value = '';
      await refresh();
      value.focus();
      return `Token “${data.name}” created.`;
    },
  });

  void refresh().catch((error: unknown) =>
    mount(list, h('p', { class: 'form-error', role: 'alert' }, (error as Error).message)),
  );
  return section(
    'API tokens',
    h(
      'p',
      null,
      'Tokens let companion apps and scripts use the API as you. Up to 10 can be active; the browsers you sign in on are listed above and do not count.',
    ),
    list,
    status,
    reveal,
    create.form,
  );
}
