// Register, log in, log out, forgot password, reset password and verify email.
import { errorPanel, formatTimestamp, logOut, renderAccountNav } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { focusHeading, h, mount } from '../lib/dom.js';
import { createForm } from '../lib/forms.js';
import { isGuest, LOGIN_FIELDS, me, nextPath } from '../lib/session.js';
import { welcomeNext } from '../lib/welcome.js';
import { type ClaimedGuest, loginNote, mergeSummary, registerNote } from './guest.js';

function panel(title: string, ...children: Array<Node | string | null>): HTMLElement {
  return h('section', { class: 'panel' }, h('h1', null, title), ...children);
}

export async function registerPage(main: HTMLElement): Promise<void> {
  // A guest registers to keep its progress (the account is the guest); anyone else logged in has nothing to do here.
  const who = await me();
  if (who && !isGuest(who)) return location.assign(nextPath('/'));
  const form = createForm({
    label: 'Create an account',
    submitLabel: 'Create account',
    fields: [
      {
        name: 'display_name',
        label: 'Display name',
        required: true,
        minlength: 2,
        maxlength: 40,
        autocomplete: 'nickname',
        hint: 'Shown on leaderboards. 2–40 characters.',
      },
      {
        name: 'email',
        label: 'Email',
        type: 'email',
        required: true,
        autocomplete: 'email',
        hint: 'We send a link to confirm it. You can play right away.',
      },
      {
        name: 'username',
        label: 'Username (optional)',
        minlength: 3,
        maxlength: 32,
        pattern: '[A-Za-z0-9_]{3,32}',
        patternMessage: 'Use 3–32 letters, digits or _',
        autocomplete: 'username',
        hint: 'Letters, digits and _; made from your display name when left empty.',
      },
      {
        name: 'password',
        label: 'Password',
        type: 'password',
        required: true,
        minlength: 8,
        maxlength: 256,
        autocomplete: 'new-password',
        hint: 'At least 8 characters.',
      },
      { name: 'newsletter', label: 'Send me the newsletter', type: 'checkbox' },
    ],
    async onSubmit(values) {
      const body: Record<string, unknown> = {
        display_name: values.display_name,
        email: values.email,
        password: values.password,
        newsletter: values.newsletter,
      };
      if (values.username) body.username = values.username;
      await api('POST', '/v1/auth/register', { body });
      welcomeNext(String(values.display_name));
      location.assign(nextPath('/'));
    },
  });
  mount(
    main,
    panel(
      'Create an account',
      who ? registerNote(who) : null,
      form.form,
      h('p', null, 'Already have one? ', h('a', { href: `/login${location.search}` }, 'Log in')),
    ),
  );
}

export async function loginPage(main: HTMLElement): Promise<void> {
  // A guest logs in to move its progress into an account; anyone else logged in has nothing to do here.
  const who = await me();
  if (who && !isGuest(who)) return location.assign(nextPath('/'));
  const form = createForm({
    label: 'Log in',
    submitLabel: 'Log in',
    fields: LOGIN_FIELDS,
    async onSubmit(values, handle) {
      let revoked: RevokedToken | undefined;
      let restored = false;
      let merged: string | null = null;
      try {
        const { data } = await api<{
          revoked_token?: RevokedToken;
          deletion_canceled?: boolean;
          claimed_guest?: ClaimedGuest;
        }>('POST', '/v1/auth/login', {
          // The service names the session from the browser's user agent ("Web portal (Chrome)").
          body: { login: values.login, password: values.password },
        });
        revoked = data.revoked_token;
        restored = data.deletion_canceled === true;
        merged = data.claimed_guest ? mergeSummary(data.claimed_guest) : null;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          handle.fields.get('password')!.control.value = '';
          throw new ApiError(401, error.code, 'The email or username and password do not match an account.');
        }
        throw error;
      }
      // A login within the grace period of a deletion keeps the account: say so before going on.
      if (restored) {
        mount(
          main,
          panel(
            'Welcome back',
            h(
              'p',
              { role: 'status' },
              'Your account was going to be deleted. Logging in has cancelled that: everything stays as it was.',
            ),
            h('p', null, h('a', { class: 'button primary', href: nextPath('/') }, 'Continue')),
          ),
        );
        return focusHeading(main);
      }
      if (revoked) return signedOutElsewhere(main, revoked);
      if (merged) return guestMerged(main, merged);
      location.assign(nextPath('/'));
    },
  });
  mount(
    main,
    panel(
      'Log in',
      who ? loginNote(who) : null,
      form.form,
      h('p', null, h('a', { href: '/forgot-password' }, 'Forgot your password?')),
      h('p', null, 'New here? ', h('a', { href: `/register${location.search}` }, 'Create an account')),
    ),
  );
}

/** A login that merged the guest this browser played as: what moved, before going on. */
async function guestMerged(main: HTMLElement, summary: string): Promise<void> {
  mount(
    main,
    panel(
      'You are logged in',
      h('p', { role: 'status' }, summary),
      h('p', null, h('a', { class: 'button primary', href: nextPath('/') }, 'Continue')),
    ),
  );
  focusHeading(main);
  await me(true).catch(() => null);
}

interface RevokedToken {
  kind: 'web' | 'api';
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * A login that made room (ten tokens and browsers active already) says what it signed out before going on, instead of
 * doing it silently. The API takes the browser used longest ago, and an API token only when no other browser is signed in.
 */
async function signedOutElsewhere(main: HTMLElement, revoked: RevokedToken): Promise<void> {
  const what = revoked.kind === 'web' ? `signed out “${revoked.name}”` : `revoked the API token “${revoked.name}”`;
  const why =
    revoked.kind === 'web'
      ? 'at most 10 browsers and API tokens stay active at once, and the browser used longest ago makes room. Your API tokens are not affected.'
      : 'at most 10 browsers and API tokens stay active at once, and no other browser was signed in to make room.';
  const when = revoked.last_used_at
    ? `last used ${formatTimestamp(revoked.last_used_at, true)}`
    : `signed in ${formatTimestamp(revoked.created_at, true)} and not used since`;
  mount(
    main,
    panel(
      'You are logged in',
      h('p', { role: 'status' }, `Signing in here ${what} (${when}): ${why}`),
      h(
        'div',
        { class: 'actions' },
        h('a', { class: 'button primary', href: nextPath('/') }, 'Continue'),
        h('a', { class: 'button', href: '/account#signed-in-browsers' }, 'See your signed-in browsers'),
      ),
    ),
  );
  focusHeading(main);
  await me(true).catch(() => null);
  await renderAccountNav();
}

export async function logoutPage(main: HTMLElement): Promise<void> {
  const who = await me();
  if (!who)
    return mount(
      main,
      panel(
        'You are logged out',
        h(
          'p',
          null,
          h('a', { href: '/' }, 'Browse the games'),
          ' or ',
          h('a', { href: '/login' }, 'log in again'),
          '.',
        ),
      ),
    );
  const button = h('button', { type: 'button', class: 'button primary' }, 'Log out');
  button.addEventListener('click', () => {
    button.disabled = true;
    void logOut();
  });
  mount(
    main,
    panel(
      'Log out',
      h('p', null, `You are logged in as ${who.player.display_name} (@${who.player.username}).`),
      h('div', { class: 'actions' }, button),
    ),
  );
}

export function forgotPasswordPage(main: HTMLElement): void {
  const form = createForm({
    label: 'Forgot password',
    submitLabel: 'Send the link',
    fields: [{ name: 'email', label: 'Email', type: 'email', required: true, autocomplete: 'email' }],
    async onSubmit(values) {
      await api('POST', '/v1/auth/forgot-password', { body: { email: values.email } });
      return `If an account uses ${String(values.email)}, we have sent it a link to choose a new password. The link works for one hour.`;
    },
  });
  mount(
    main,
    panel(
      'Forgot your password?',
      h('p', null, 'Enter the email of your account and we will send you a link to choose a new password.'),
      form.form,
    ),
  );
}

function tokenFromUrl(): string | null {
  return new URLSearchParams(location.search).get('token');
}

export function resetPasswordPage(main: HTMLElement): void {
  const token = tokenFromUrl();
  if (!token) {
    const again = h('a', { class: 'button primary', href: '/forgot-password' }, 'Ask for a new link');
    mount(main, errorPanel('Link incomplete', 'This page needs the whole link from the password reset email.', again));
    return;
  }
  const form = createForm({
    label: 'Choose a new password',
    submitLabel: 'Set password',
    fields: [
      {
        name: 'password',
        label: 'New password',
        type: 'password',
        required: true,
        minlength: 8,
        maxlength: 256,
        autocomplete: 'new-password',
        hint: 'At least 8 characters.',
      },
      {
        name: 'confirm',
        label: 'Repeat the new password',
        type: 'password',
        required: true,
        autocomplete: 'new-password',
      },
    ],
    async onSubmit(values) {
      if (values.password !== values.confirm)
        throw new ApiError(422, 'validation_failed', 'The passwords differ', {
          confirm: 'does not match the new password',
        });
      try {
        await api('POST', '/v1/auth/reset-password', { body: { token, password: values.password } });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'invalid_token')
          throw new ApiError(
            422,
            error.code,
            'This reset link is used or expired. Ask for a new one on the forgot-password page.',
          );
        throw error;
      }
      mount(
        main,
        panel(
          'Password changed',
          h('p', { role: 'status' }, 'Your new password is set, and every device was logged out.'),
          h('p', null, h('a', { class: 'button primary', href: '/login' }, 'Log in')),
        ),
      );
      focusHeading(main);
    },
  });
  mount(
    main,
    panel('Choose a new password', form.form, h('p', null, h('a', { href: '/forgot-password' }, 'Ask for a new link'))),
  );
}

export async function verifyEmailPage(main: HTMLElement): Promise<void> {
  const token = tokenFromUrl();
  if (!token)
    return mount(
      main,
      errorPanel('Link incomplete', 'This page needs the whole link from the verification email.', accountLink()),
    );
  mount(main, panel('Verifying your email…', h('p', { role: 'status' }, 'One moment.')));
  try {
    await api('POST', '/v1/auth/verify-email', { body: { token } });
    mount(
      main,
      panel(
        'Email verified',
        h('p', { role: 'status' }, 'Thank you: your email address is confirmed.'),
        h('p', null, h('a', { class: 'button primary', href: '/' }, 'Play a game')),
      ),
    );
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'invalid_token'))
      mount(main, errorPanel('Email not verified', (error as Error).message, accountLink()));
    // A link used once already: for the player who used it, that is good news, not an error.
    else if ((await me(true).catch(() => null))?.player.email_verified) {
      mount(
        main,
        panel(
          'Email already verified',
          h('p', { role: 'status' }, 'Your email address is confirmed; this link has done its job.'),
          h('p', null, h('a', { class: 'button primary', href: '/' }, 'Play a game')),
        ),
      );
    } else
      mount(
        main,
        errorPanel(
          'Email not verified',
          'This link is used or expired. Log in to see whether your email is verified.',
          accountLink(),
        ),
      );
  }
  focusHeading(main);
}

function accountLink(): HTMLElement {
  return h('a', { class: 'button primary', href: '/account' }, 'Go to your account');
}
