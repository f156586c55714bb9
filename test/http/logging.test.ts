// No secret in any log line: secret query values in URLs, credential headers, passwords and issued tokens are masked
// (pino `redact`, the request serializer and a last scrub of every line), checked by grepping the captured log.
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLogger, loggerOptions, redactUrl, scrubSecrets } from '../../src/http/logging.js';
import { createGame, createPlayerWithPassword } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

const PASSWORD = 'correct horse battery';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream, text: () => lines.join('\n') };
}

const log = capture();

eachDialect(
  'http: secrets in the log',
  (h) => {
    beforeEach(() => {
      log.lines.length = 0;
    });

    it('logs request lines at info, with the mail token and the play-session token of their URLs masked', async () => {
      const game = await createGame(h.ctx);
      const player = await createPlayerWithPassword(h.ctx, PASSWORD);
      const login = await h.http.post('/v1/auth/login', { body: { login: player.username, password: PASSWORD } });
      const token = login.body.data.token as string;
      const start = await h.http.post('/v1/play/start', { token, body: { game: game.slug } });
      expect(start.status).toBe(200);
      const session = start.body.data.session as string;
      const mailToken = `mt_${'A1b2C3d4'.repeat(5)}`;
      await h.http.get(`/verify-email?token=${mailToken}`);
      await h.http.get(`/reset-password?foo=1&token=${mailToken}`);
      await h.http.get(`/g/${game.slug}/index.html?session=${session}`);
      await h.http.get('/v1/me', { token });

      const text = log.text();
      // The request lines are there, at info, with their paths.
      expect(text).toContain('/verify-email?token=[redacted]');
      expect(text).toContain('/reset-password?foo=1&token=[redacted]');
      expect(text).toContain(`/g/${game.slug}/index.html?session=[redacted]`);
      // One access line per request, at info, when the answer is sent: method, masked URL and status.
      const access = log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
      const verify = access.filter((l) => l.url === '/verify-email?token=[redacted]');
      expect(verify).toHaveLength(1);
      expect(verify[0]).toMatchObject({
        level: 30,
        method: 'GET',
        statusCode: expect.any(Number),
        reqId: expect.any(String),
      });
      expect(log.lines.some((l) => l.includes('incoming request'))).toBe(false);
      for (const secret of [mailToken, session, token, PASSWORD]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/(agp|agk|mt|ps)_[0-9A-Za-z]{16,}/);
    });

    it('keeps the mail token of a mail kept in the outbox out of the log (the outbox has it)', async () => {
      const email = `log-${Date.now()}@example.com`;
      const res = await h.http.post('/v1/auth/register', {
        body: { email, password: PASSWORD, display_name: 'Log Reader' },
      });
      expect(res.status).toBe(201);
      await h.ctx.mailer.idle();
      const mail = await h.ctx.db
        .selectFrom('mail_outbox')
        .select('text_body')
        .where('to_address', '=', email)
        .executeTakeFirstOrThrow();
      const mailToken = /token=(mt_[0-9A-Za-z]+)/.exec(mail.text_body)![1]!;
      const text = log.text();
      expect(text).toContain('mail kept in the outbox');
      expect(text).not.toContain(mailToken);
      expect(text).not.toContain(res.body.data.token);
      expect(text).not.toContain(PASSWORD);
    });
  },
  { settings: { log_level: 'info' }, logStream: log.stream },
);

describe('http: logger options', () => {
  it('redacts credential headers, cookies and passwords from any logged object', () => {
    const out = capture();
    const logger = pino(loggerOptions('info'), out.stream);
    logger.info(
      {
        req: { headers: { authorization: 'Bearer secret-a', cookie: 'gp_session=secret-b' } },
        res: { headers: { 'set-cookie': 'gp_session=secret-c' } },
        headers: { authorization: 'Basic secret-d' },
        body: { password: 'secret-e', token: 'secret-f' },
        account: { new_password: 'secret-g' },
      },
      'a line',
    );
    logger
      .child({ reqId: 'r1' })
      .warn(`failed for /verify-email?token=mt_${'x'.repeat(43)} with agk_${'Y'.repeat(43)}`);
    const text = out.text();
    for (const secret of [
      'secret-a',
      'secret-b',
      'secret-c',
      'secret-d',
      'secret-e',
      'secret-f',
      'secret-g',
      'x'.repeat(43),
      'Y'.repeat(43),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('mt_[redacted]');
    expect(text).toContain('agk_[redacted]');
  });

  it("makes a request's logger when it is first written to: its lines carry the request id, through the redaction", () => {
    const out = capture();
    const root = pino(loggerOptions('info'), out.stream);
    let children = 0;
    const child = root.child.bind(root);
    const counted = Object.assign(Object.create(root) as typeof root, {
      child: (...args: Parameters<typeof root.child>) => {
        children++;
        return child(...args);
      },
    });
    const log = lazyChildLogger(counted as unknown as FastifyBaseLogger, { reqId: 'req-1' }, {});
    // Reading the level, or whether a level is on, makes nothing.
    expect(log.level).toBe('info');
    expect((log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')).toBe(true);
    expect((log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('debug')).toBe(false);
    expect(children).toBe(0);
    log.debug('not written');
    log.error({ headers: { authorization: 'Bearer secret-a' } }, 'failed');
    log.warn('again');
    expect(children).toBe(1);
    const lines = out.lines.map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, reqId: 'req-1', msg: 'failed', headers: { authorization: '[redacted]' } }),
      expect.objectContaining({ level: 40, reqId: 'req-1', msg: 'again' }),
    ]);
    // A route with a level of its own (the probes, /metrics) gets its pino child at once, at that level.
    const quiet = lazyChildLogger(counted as unknown as FastifyBaseLogger, { reqId: 'req-2' }, { level: 'warn' });
    expect(children).toBe(2);
    expect(quiet.level).toBe('warn');
  });

  it('scrubs issued secrets from any line, and leaves a line without them as it is', () => {
    expect(scrubSecrets('{"msg":"request completed","url":"/v1/status"}')).toBe(
      '{"msg":"request completed","url":"/v1/status"}',
    );
    expect(scrubSecrets('a snake_case line with no secret')).toBe('a snake_case line with no secret');
    expect(scrubSecrets(`ps_${'a'.repeat(20)} and agp_${'B'.repeat(20)}`)).toBe('ps_[redacted] and agp_[redacted]');
  });

  it('masks the values of secret query parameters, and nothing else', () => {
    expect(redactUrl('/v1/games?sort=new&page=2')).toBe('/v1/games?sort=new&page=2');
    expect(redactUrl('/verify-email?token=abc')).toBe('/verify-email?token=[redacted]');
    expect(redactUrl('/x?Session=abc&a=b&password=p&key')).toBe('/x?Session=[redacted]&a=b&password=[redacted]&key');
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
  });
});
