// The mail the accounts capability sends: email verification and password reset, as text and simple HTML.
import type { Config } from '../../config.js';
import type { MailMessage } from '../mail/mailer.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function message(to: string, subject: string, greeting: string, lines: string[], link: { url: string; label: string }, footer: string): MailMessage {
  const text = [greeting, '', ...lines, '', link.url, '', footer, ''].join('\n');
  const html =
    `<p>${escapeHtml(greeting)}</p>` +
    lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` +
    `<p style="color:#666">${escapeHtml(footer)}</p>`;
  return { to, subject, text, html };
}

export function verificationMail(config: Pick<Config, 'public_url'>, to: string, displayName: string, token: string): MailMessage {
  return message(
    to,
    'Confirm your email address',
    `Hello ${displayName},`,
    ['welcome to the game platform. You can play right away; please confirm your email address with this link (valid for 7 days):'],
    { url: `${config.public_url}/verify-email?token=${encodeURIComponent(token)}`, label: 'Confirm my email address' },
    'If you did not create an account, ignore this mail.',
  );
}

export function passwordResetMail(config: Pick<Config, 'public_url'>, to: string, displayName: string, token: string): MailMessage {
  return message(
    to,
    'Reset your password',
    `Hello ${displayName},`,
    ['someone asked to reset the password of your game platform account. Choose a new one with this link (valid for 1 hour, once):'],
    { url: `${config.public_url}/reset-password?token=${encodeURIComponent(token)}`, label: 'Choose a new password' },
    'If you did not ask for this, ignore this mail: your password stays as it is.',
  );
}
