// The mail the accounts capability sends: email verification, password reset, change of email and deletion notices, as text and simple HTML.
import type { Config } from '../../config.js';
import type { PlayerRow } from '../../db/schema.js';
import type { MailMessage } from '../../services/mail/mailer.js';

/**
 * The first line. A mail to an address that has not been confirmed carries no text the caller chose (such as a display
 * name): anyone may type someone else's address, and the mail must not carry their message to it.
 */
const greeting = (displayName: string | null) => (displayName === null ? 'Hello,' : `Hello ${displayName},`);

/** The display name for a mail to the player's own address, null while that address is not confirmed. */
export const verifiedName = (player: Pick<PlayerRow, 'email_verified' | 'display_name'>): string | null =>
  player.email_verified === 1 ? player.display_name : null;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(
  to: string,
  subject: string,
  greeting: string,
  lines: string[],
  link: { url: string; label: string },
  footer: string,
): MailMessage {
  const text = [greeting, '', ...lines, '', link.url, '', footer, ''].join('\n');
  const html =
    `<p>${escapeHtml(greeting)}</p>` +
    lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` +
    `<p style="color:#666">${escapeHtml(footer)}</p>`;
  return { to, subject, text, html };
}

/** To an address not confirmed yet: no display name. */
export function verificationMail(config: Pick<Config, 'public_url'>, to: string, token: string): MailMessage {
  return message(
    to,
    'Confirm your email address',
    greeting(null),
    [
      'welcome to the game platform. You can play right away; please confirm your email address with this link (valid for 7 days):',
    ],
    { url: `${config.public_url}/verify-email?token=${encodeURIComponent(token)}`, label: 'Confirm my email address' },
    'If you did not create an account, ignore this mail.',
  );
}

/** `displayName` null when the address is not confirmed. */
export function passwordResetMail(
  config: Pick<Config, 'public_url'>,
  to: string,
  displayName: string | null,
  token: string,
): MailMessage {
  return message(
    to,
    'Reset your password',
    greeting(displayName),
    [
      'someone asked to reset the password of your game platform account. Choose a new one with this link (valid for 1 hour, once):',
    ],
    { url: `${config.public_url}/reset-password?token=${encodeURIComponent(token)}`, label: 'Choose a new password' },
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  );
}

/** To the new address, not confirmed yet: no display name. */
export function emailChangeMail(config: Pick<Config, 'public_url'>, to: string, token: string): MailMessage {
  return message(
    to,
    'Confirm your new email address',
    greeting(null),
    [
      'you asked to use this address for your game platform account. Confirm it with this link (valid for 24 hours, once); until then your account keeps its old address:',
    ],
    {
      url: `${config.public_url}/confirm-email?token=${encodeURIComponent(token)}`,
      label: 'Confirm my new email address',
    },
    'If you did not ask for this, ignore this mail: nothing changes.',
  );
}

/**
 * To the current address. When it is not confirmed, the mail names neither the player nor the new address (both the
 * caller's text): `displayName` and `newEmail` are null then.
 */
export function emailChangeNoticeMail(
  config: Pick<Config, 'public_url'>,
  to: string,
  displayName: string | null,
  newEmail: string | null,
): MailMessage {
  const where = newEmail === null ? 'another address' : newEmail;
  return message(
    to,
    'Your email address is about to change',
    greeting(displayName),
    [
      `someone who knows your password asked to move your game platform account to ${where}. The change happens only once that address confirms it.`,
      'If this was not you, change your password now:',
    ],
    { url: `${config.public_url}/account`, label: 'Go to your account' },
    'If it was you, there is nothing to do.',
  );
}

/** `displayName` null when the address is not confirmed. */
export function deletionScheduledMail(
  config: Pick<Config, 'public_url'>,
  to: string,
  displayName: string | null,
  due: string,
): MailMessage {
  return message(
    to,
    'Your account will be deleted',
    greeting(displayName),
    [
      `your game platform account is scheduled for deletion on ${due} UTC. Until then, logging in cancels the deletion and keeps everything as it was. After that date your profile, saves, favourites, scores and play history are removed for good.`,
    ],
    { url: `${config.public_url}/login`, label: 'Log in to keep my account' },
    'If you asked for this, there is nothing to do.',
  );
}
