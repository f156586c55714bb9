// The real app listening on a loopback port, with its log captured, and raw-socket requests to it: for what app.inject
// cannot show (answers Node gives below Fastify, resets, timeouts, connection limits).
import { once } from 'node:events';
import { request } from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { buildApp, type App } from '../../src/app.js';
import { openDatabase, type DialectName } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { testConfig } from './app.js';
import { createTestDatabase } from './database.js';

export interface LiveApp {
  app: App;
  port: number;
  /** every log line written so far, parsed */
  logs: Array<{ level: number; msg?: string; err?: { message?: string } }>;
  close(): Promise<void>;
}

export async function liveApp(dialect: DialectName, settings: Record<string, unknown> = {}): Promise<LiveApp> {
  const testDb = await createTestDatabase(dialect);
  const config = testConfig(testDb.dataDir, testDb.url, { settings: { log_level: 'trace', ...settings } });
  const database = openDatabase(config.database_url);
  await migrateToLatest(database.db);
  const logs: LiveApp['logs'] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({ config, database, logger: pino({ level: 'trace' }, sink) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    port: (app.server.address() as net.AddressInfo).port,
    logs,
    async close() {
      await app.close();
      await database.destroy();
      await testDb.drop();
    },
  };
}

export interface RawAnswer {
  /** everything the server sent */
  text: string;
  status: number | undefined;
  headers: Record<string, string>;
  /** the body parsed as JSON, when it is */
  body: any;
  /** whether the server closed the connection (else the wait ran out) */
  closed: boolean;
}

/**
 * Resolves when the socket closes, whatever closed it. A write racing the server's close fails (EPIPE, ECONNRESET):
 * that is the close the tests wait for, so the error is swallowed, and it does not reject the wait as
 * events.once(socket, 'close') would.
 */
export function closeOf(socket: net.Socket): Promise<void> {
  socket.on('error', () => {});
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

/** Opens a connection, writes `request` and reads until the server closes it or `waitMs` pass. */
export async function rawRequest(port: number, request: string | Buffer, waitMs = 3000): Promise<RawAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = closeOf(socket).then(() => true);
  socket.write(request);
  const ended = await Promise.race([
    closed,
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs)),
  ]);
  socket.destroy();
  return parseAnswer(Buffer.concat(chunks).toString('utf8'), ended);
}

export function parseAnswer(text: string, closed: boolean): RawAnswer {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  let body: unknown;
  try {
    body = JSON.parse(rest.join('\r\n\r\n'));
  } catch {
    body = undefined;
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return { text, status: status ? Number(status) : undefined, headers, body, closed };
}

/** A plain GET over a fresh connection (no keep-alive agent): status and body text. */
export function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
