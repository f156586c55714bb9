// /confirm-email?token=…: the link mailed to a new address by "Change email" on the account page.
import { errorPanel } from '../layout.js';
import { ApiError, api } from '../lib/api.js';
import { focusHeading, h, mount } from '../lib/dom.js';
import { me } from '../lib/session.js';

function panel(title: string, ...children: Array<Node | string | null>): HTMLElement {
  return h('section', { class: 'panel' }, h('h1', null, title), ...children);
}

const accountLink = () => h('a', { class: 'button primary', href: '/account' }, 'Go to your account');

export async function confirmEmailPage(main: HTMLElement): Promise<void> {
  const token = new URLSearchParams(location.search).get('token')?.trim();
  if (!token)
    return mount(
      main,
      errorPanel(
        'Link incomplete',
        'This page needs the whole link from the email that confirms your new address.',
        accountLink(),
      ),
    );
  mount(main, panel('Confirming your new email…', h('p', { role: 'status' }, 'One moment.')));
  try {
    const { data } = await api<{ email: string }>('POST', '/v1/auth/confirm-email', { body: { token } });
    void me(true);
    mount(
      main,
      panel(
        'Email changed',
        h('p', { role: 'status' }, `Your account now uses ${data.email}. Log in with it from now on.`),
        h('p', null, accountLink()),
      ),
    );
  } catch (error) {
    const message =
      error instanceof ApiError && error.code === 'invalid_token'
        ? 'This link is used or expired. Ask for a new one under “Change email” on your account page.'
        : error instanceof ApiError && error.code === 'email_taken'
          ? 'Another account has taken this address in the meantime, so your email stays as it was.'
          : (error as Error).message;
    mount(main, errorPanel('Email not changed', message, accountLink()));
  }
  focusHeading(main);
}
