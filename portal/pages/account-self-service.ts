// The account page's self-service parts: resend the verification mail, change password or email, download my data, delete the account.
import { formatTimestamp } from '../layout.js';
import { ApiError, SDK_HEADER, api, failureOf, send } from '../lib/api.js';
import { focusHeading, h, mount, uid } from '../lib/dom.js';
import { createForm, type FormHandle } from '../lib/forms.js';
import { me, type OwnPlayer } from '../lib/session.js';

/** Days between asking for deletion and the purge (DELETE /v1/me; the API says the same). */
export const DELETION_GRACE_DAYS = 30;

function section(title: string, ...children: Array<Node | null>): HTMLElement {
  const id = uid('section');
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

/** Puts an API refusal at its field, in the portal's words; anything else goes to the form's alert. */
function atField(handle: FormHandle, name: string, message: string): void {
  const field = handle.fields.get(name)!;
  field.setError(message);
  field.control.focus();
}

const clear = (handle: FormHandle, ...names: string[]) => {
  for (const name of names) (handle.fields.get(name)!.control as HTMLInputElement).value = '';
};

/** "Resend verification email", for the email row of an unverified account. */
export function resendVerificationButton(): HTMLElement {
  const button = h('button', { type: 'button', class: 'button small' }, 'Resend verification email');
  const status = h('span', { class: 'form-status', role: 'status' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = '';
    try {
      const { data } = await api<{ email: string }>('POST', '/v1/me/verification-email');
      status.textContent = `Sent: check ${data.email} for the new link.`;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'already_verified')
        status.textContent = 'Your email address is verified already.';
      else status.textContent = (error as Error).message;
      button.disabled = false;
    }
  });
  return h('span', { class: 'resend-verification' }, ' ', button, ' ', status);
}

export function passwordSection(): HTMLElement {
  const form = createForm({
    label: 'Change password',
    submitLabel: 'Change password',
    fields: [
      {
        name: 'current_password',
        label: 'Current password',
        type: 'password',
        required: true,
        autocomplete: 'current-password',
      },
      {
        name: 'new_password',
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
    async onSubmit(values, handle) {
      if (values.new_password !== values.confirm)
        return atField(handle, 'confirm', 'Repeat the new password: it does not match the new password');
      try {
        const { data } = await api<{ tokens_revoked: number }>('POST', '/v1/me/password', {
          body: { current_password: values.current_password, new_password: values.new_password },
        });
        clear(handle, 'current_password', 'new_password', 'confirm');
        return data.tokens_revoked
          ? `Password changed. You stay logged in here; ${data.tokens_revoked} other session${data.tokens_revoked === 1 ? '' : 's'} and token${data.tokens_revoked === 1 ? ' was' : 's were'} logged out.`
          : 'Password changed. You stay logged in here.';
      } catch (error) {
        if (error instanceof ApiError && error.code === 'wrong_password')
          return atField(handle, 'current_password', 'Current password is not right');
        throw error;
      }
    },
  });
  return section(
    'Change password',
    h('p', null, 'Your other devices and API tokens are logged out when the password changes.'),
    form.form,
  );
}

export function emailSection(player: OwnPlayer): HTMLElement {
  const form = createForm({
    label: 'Change email',
    submitLabel: 'Send confirmation link',
    fields: [
      {
        name: 'email',
        label: 'New email address',
        type: 'email',
        required: true,
        maxlength: 254,
        autocomplete: 'email',
      },
      {
        name: 'password',
        label: 'Your password',
        type: 'password',
        required: true,
        autocomplete: 'current-password',
        hint: 'To make sure it is you.',
      },
    ],
    async onSubmit(values, handle) {
      try {
        const { data } = await api<{ pending_email: string }>('POST', '/v1/me/email', {
          body: { email: values.email, password: values.password },
        });
        clear(handle, 'password');
        return `Almost done: open the link we sent to ${data.pending_email} within 24 hours. Until then your address stays ${player.email}.`;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'wrong_password')
          return atField(handle, 'password', 'Your password is not right');
        if (error instanceof ApiError && error.code === 'email_taken')
          return atField(handle, 'email', 'New email address is used by another account');
        if (error instanceof ApiError && error.code === 'validation_failed' && error.fields.email) {
          // the API says which: the current address, or one it cannot take ("must match format email")
          const current = /current address/.test(error.fields.email);
          return atField(
            handle,
            'email',
            current
              ? 'New email address is your current address already'
              : 'Enter a whole email address, like name@example.com',
          );
        }
        throw error;
      }
    },
  });
  return section(
    'Change email',
    h('p', null, 'We send a link to the new address; your email changes when you open it.'),
    form.form,
  );
}

/** The file name the server gives in Content-Disposition, or a default. */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return match?.[1] ?? 'gameplatform-export.json';
}

export function exportSection(): HTMLElement {
  const button = h('button', { type: 'button', class: 'button' }, 'Download my data');
  const status = h('p', { class: 'form-status', role: 'status' });
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Preparing your file…';
    try {
      const response = await send('/v1/me/export', {
        headers: { ...SDK_HEADER, Accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!response.ok) throw await failureOf(response);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = h('a', { href: url, download: fileNameOf(response), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      status.textContent = 'Your data is downloaded as a JSON file.';
    } catch (error) {
      status.textContent = (error as Error).message || 'The export failed. Please try again.';
    } finally {
      button.disabled = false;
    }
  });
  return section(
    'Download my data',
    h(
      'p',
      null,
      'One JSON file with your profile, membership, favourites, saves, scores, play history and API tokens (their first characters only). Passwords are never in it.',
    ),
    h('div', { class: 'actions' }, button),
    status,
  );
}

export function deleteSection(main: HTMLElement): HTMLElement {
  const statement = h(
    'p',
    { id: uid('delete-statement') },
    `Your account is deleted ${DELETION_GRACE_DAYS} days after you confirm. You are logged out everywhere at once and your profile disappears. `,
    `Changed your mind? Log in within those ${DELETION_GRACE_DAYS} days and the deletion is cancelled. `,
    'After that, your profile, saves, favourites, scores and play history are removed for good, and your scores leave the leaderboards.',
  );
  const start = h('button', { type: 'button', class: 'button danger' }, 'Delete my account…');
  const form = createForm({
    label: 'Confirm account deletion',
    submitLabel: 'Delete my account',
    fields: [
      {
        name: 'password',
        label: 'Type your password to confirm',
        type: 'password',
        required: true,
        autocomplete: 'current-password',
      },
    ],
    async onSubmit(values, handle) {
      let due: string;
      try {
        const { data } = await api<{ deletion_due_at: string }>('DELETE', '/v1/me', {
          body: { password: values.password },
        });
        due = data.deletion_due_at;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'wrong_password')
          return atField(handle, 'password', 'Your password is not right');
        throw error;
      }
      void me(true);
      mount(
        main,
        h(
          'section',
          { class: 'panel' },
          h('h1', null, 'Your account will be deleted'),
          h('p', { role: 'status' }, `It is deleted for good on ${formatTimestamp(due)}. You are logged out now.`),
          h('p', null, `Log in before then to keep it: the deletion is cancelled and everything stays as it was.`),
          h('p', null, h('a', { class: 'button', href: '/' }, 'Back to the games')),
        ),
      );
      focusHeading(main);
    },
  });
  const submit = form.form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  // The last step: the way out is the primary button, the deletion a red one that does not look like it.
  submit.classList.remove('primary');
  submit.classList.add('danger', 'solid');
  const cancel = h('button', { type: 'button', class: 'button primary' }, 'Keep my account');
  submit.after(' ', cancel);
  form.form.hidden = true;
  start.addEventListener('click', () => {
    start.hidden = true;
    form.form.hidden = false;
    form.fields.get('password')!.control.focus();
  });
  cancel.addEventListener('click', () => {
    form.clearErrors();
    clear(form, 'password');
    form.form.hidden = true;
    start.hidden = false;
    start.focus();
  });
  return section('Delete account', statement, h('div', { class: 'actions' }, start), form.form);
}
