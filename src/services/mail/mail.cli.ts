// gameplatform mail outbox: read the mail kept when no SMTP server is set, and the mail waiting for the SMTP server.
import type { Command } from 'commander';
import type { AppContext } from '../../context.js';
import { formatTimestamp } from '../../time.js';
import { listOutboxMail } from './outbox.repository.js';

type WithContext = <T>(fn: (ctx: AppContext) => Promise<T>, options?: { readOnly?: boolean }) => Promise<T>;

export function registerMailCommands(program: Command, withContext: WithContext): void {
  const mail = program.command('mail').description('platform mail');
  mail
    .command('outbox')
    .description(
      'show the mail in the outbox, oldest first: kept (no smtp_url set), waiting for the SMTP server, or refused by it',
    )
    .option('--to <email>', 'only mail to this address')
    .option('--json', 'print the mail as a JSON array')
    .action(async (options: { to?: string; json?: boolean }) => {
      await withContext(
        async (ctx) => {
          const mails = await listOutboxMail(ctx.db, options.to);
          if (options.json) {
            const rows = mails.map((m) => ({
              id: m.id,
              created_at: formatTimestamp(m.created_at),
              to: m.to_address,
              subject: m.subject,
              text: m.text_body,
            }));
            console.log(JSON.stringify(rows, null, 2));
            return;
          }
          if (mails.length === 0) {
            console.log(options.to ? `no mail to ${options.to} in the outbox` : 'the outbox is empty');
            return;
          }
          for (const m of mails) {
            console.log(`--- #${m.id} ${formatTimestamp(m.created_at)} UTC`);
            console.log(`To: ${m.to_address}`);
            console.log(`Subject: ${m.subject}`);
            if (m.next_attempt_at !== null)
              console.log(
                `Waiting: ${m.attempts} attempt(s), next at ${formatTimestamp(m.next_attempt_at)} UTC${m.last_error ? `; last error: ${m.last_error}` : ''}`,
              );
            else if (m.last_error)
              console.log(`Refused by the SMTP server after ${m.attempts} attempt(s): ${m.last_error}`);
            console.log('');
            console.log(m.text_body.trimEnd());
            console.log('');
          }
        },
        { readOnly: true },
      );
    });
}
