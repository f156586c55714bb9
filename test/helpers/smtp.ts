// A real SMTP server (smtp-server) on a free port, collecting what it receives: mail tests talk to it through nodemailer.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** the text/plain part, transfer encoding undone */
  text: string;
  /** the text/html part, when there is one */
  html: string | undefined;
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  mails: ReceivedMail[];
  /** mails to this address, oldest first */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

function decodeBody(body: string, encoding: string | undefined): string {
  const e = (encoding ?? '7bit').toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (e === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function splitHead(part: string): { headers: Record<string, string>; body: string } {
  const at = part.indexOf('\r\n\r\n');
  const head = at === -1 ? part : part.slice(0, at);
  const body = at === -1 ? '' : part.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** Finds the parts of a (possibly multipart) message by content type. */
function parts(raw: string): Array<{ type: string; text: string; headers: Record<string, string> }> {
  const { headers, body } = splitHead(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    return [
      {
        type: type.split(';')[0]!.trim().toLowerCase(),
        text: decodeBody(body, headers['content-transfer-encoding']),
        headers,
      },
    ];
  }
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .flatMap((p) => parts(p.replace(/^\r\n/, '')));
}

export interface SmtpServerOptions {
  /** listen on this port (a restarted server takes its predecessor's port); default a free one */
  port?: number;
  /** answer RCPT TO with this SMTP error while it returns one (e.g. 451 for "try later", 550 for "never") */
  refuse?: (recipient: string) => { code: number; message: string } | undefined;
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const found = parts(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: splitHead(raw).headers.subject ?? '',
          text: found.find((p) => p.type === 'text/plain')?.text ?? '',
          html: found.find((p) => p.type === 'text/html')?.text,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token in a mail's link `…/<path>?token=…`. */
export function tokenFromMail(mail: { text: string }, path: 'verify-email' | 'reset-password'): string {
  const match = new RegExp(`/${path}\\?token=([A-Za-z0-9_%-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.text}`);
  return decodeURIComponent(match[1]!);
}
