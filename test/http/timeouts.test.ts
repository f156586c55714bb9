// Slow and idle clients cannot hold connections: request, headers and keep-alive timeouts and a connection cap
// (settings http.*), on a real listening server with short settings and raw sockets.
import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledDialects } from '../helpers/dialects.js';
import { closeOf, liveApp, parseAnswer, rawRequest, type LiveApp } from '../helpers/live.js';

interface Client {
  socket: net.Socket;
  received: () => string;
  /** resolves with the milliseconds from opening until the server closed the connection, or null after `withinMs` */
  closedWithin: (withinMs: number) => Promise<number | null>;
}

async function connect(port: number): Promise<Client> {
  const opened = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  let closedAt: number | undefined;
  const closed = closeOf(socket).then(() => (closedAt = Date.now()));
  await once(socket, 'connect');
  return {
    socket,
    received: () => Buffer.concat(chunks).toString('utf8'),
    closedWithin: async (withinMs) => {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, withinMs))]);
      return closedAt === undefined ? null : closedAt - opened;
    },
  };
}

for (const dialect of enabledDialects()) {
  describe(`http: timeouts and the connection cap [${dialect}]`, () => {
    let live: LiveApp;
    beforeAll(async () => {
      live = await liveApp(dialect, {
        'http.request_timeout_seconds': 2,
        'http.headers_timeout_seconds': 1,
        'http.keep_alive_timeout_seconds': 1,
        'http.max_connections': 8,
      });
    });
    afterAll(async () => {
      await live?.close();
    });

    it('answers a body sent at one byte every 200 ms with 408 request_timeout and closes it at the request timeout', async () => {
      const client = await connect(live.port);
      client.socket.write(
        'POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      );
      const drip = setInterval(() => client.socket.writable && client.socket.write('{'), 200);
      const closedAfter = await client.closedWithin(6000);
      clearInterval(drip);
      client.socket.destroy();
      expect(closedAfter).not.toBeNull();
      expect(closedAfter!).toBeGreaterThanOrEqual(1900);
      expect(closedAfter!).toBeLessThan(4000);
      const answer = parseAnswer(client.received(), true);
      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({ ok: false, error: { code: 'request_timeout' } });
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    });

    it('closes a connection whose headers do not arrive, and one that never sends anything, at the headers timeout', async () => {
      // keep-alive and request timeouts well above the headers timeout, so that only it can close them
      const other = await liveApp(dialect, {
        'http.request_timeout_seconds': 10,
        'http.headers_timeout_seconds': 1,
        'http.keep_alive_timeout_seconds': 10,
      });
      const partial = await connect(other.port);
      partial.socket.write('GET /v1/status HTTP/1.1\r\nHost: local');
      const silent = await connect(other.port);
      const [partialAfter, silentAfter] = await Promise.all([partial.closedWithin(5000), silent.closedWithin(5000)]);
      partial.socket.destroy();
      silent.socket.destroy();
      await other.close();
      // the headers timeout (1 s, checked twice a second)
      expect(partialAfter).not.toBeNull();
      expect(partialAfter!).toBeLessThan(1900);
      expect(silentAfter).not.toBeNull();
      expect(silentAfter!).toBeGreaterThanOrEqual(900);
      expect(silentAfter!).toBeLessThan(1900);
    });

    it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
      const client = await connect(live.port);
      client.socket.write('GET /v1/status HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const closedAfter = await client.closedWithin(5000);
      client.socket.destroy();
      expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(client.received()).toMatch(/Keep-Alive: timeout=1/i);
      expect(closedAfter).not.toBeNull();
      expect(closedAfter!).toBeLessThan(3500);
    });

    it('holds no more connections than http.max_connections: one more is closed at once', async () => {
      const clients = await Promise.all(Array.from({ length: 12 }, () => connect(live.port)));
      // The cap closes each extra connection as it is accepted; the 8 others stay open until the headers timeout
      // (1 s) closes them for sending nothing. Each close is waited for (a loaded machine accepts late), up to 900 ms.
      const closedAfter = await Promise.all(clients.map((c) => c.closedWithin(900)));
      for (const c of clients) c.socket.destroy();
      expect(closedAfter.filter((t) => t !== null && t < 900).length).toBe(4);
      // once they are gone, new connections are served again
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(
        (await rawRequest(live.port, 'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status,
      ).toBe(200);
    });
  });
}
