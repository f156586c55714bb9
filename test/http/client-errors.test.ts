// Answers Node gives below Fastify (431, 400, 417, 408) come in the envelope with nosniff; a client that resets its
// connection right after sending logs nothing at warn or above. Raw sockets against a listening server.
import { once } from 'node:events';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledDialects } from '../helpers/dialects.js';
import { liveApp, rawRequest, type LiveApp, type RawAnswer } from '../helpers/live.js';

function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.body).toMatchObject({ ok: false, error: { code } });
  expect(typeof answer.body.error.message).toBe('string');
}

for (const dialect of enabledDialects()) {
  describe(`http: answers below the router [${dialect}]`, () => {
    let live: LiveApp;
    beforeAll(async () => {
      live = await liveApp(dialect);
    });
    afterAll(async () => {
      await live?.close();
    });

    it('answers headers over http.max_header_bytes (1 MiB) with 431 headers_too_large', async () => {
      const answer = await rawRequest(
        live.port,
        `GET /v1/status HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(1_100_000)}\r\n\r\n`,
      );
      expectEnvelope(answer, 431, 'headers_too_large');
    });

    it('answers a NUL in a header value with 400 bad_request', async () => {
      const answer = await rawRequest(
        live.port,
        'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nX-Nul: a\u0000b\r\n\r\n',
      );
      expectEnvelope(answer, 400, 'bad_request');
    });

    it('answers a malformed request line and a bad Content-Length with 400 bad_request', async () => {
      expectEnvelope(await rawRequest(live.port, 'HELLO THERE\r\n\r\n'), 400, 'bad_request');
      expectEnvelope(
        await rawRequest(live.port, 'POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n'),
        400,
        'bad_request',
      );
    });

    it('answers an HTTP/1.1 request without Host with 400 bad_request, and serves HTTP/1.0 without one', async () => {
      expectEnvelope(
        await rawRequest(live.port, 'GET /v1/status HTTP/1.1\r\nConnection: close\r\n\r\n'),
        400,
        'bad_request',
      );
      const old = await rawRequest(live.port, 'GET /v1/status HTTP/1.0\r\n\r\n');
      expect(old.status).toBe(200);
    });

    it('answers CONNECT with 405 method_not_allowed', async () => {
      const answer = await rawRequest(
        live.port,
        'CONNECT attacker.example:443 HTTP/1.1\r\nHost: attacker.example:443\r\n\r\n',
      );
      expectEnvelope(answer, 405, 'method_not_allowed');
    });

    it('answers a GET with Content-Encoding as any GET (no 415: a GET has no body to decode)', async () => {
      const answer = await rawRequest(
        live.port,
        'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n',
      );
      expect(answer.status).toBe(200);
      const post = await rawRequest(
        live.port,
        'POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
      expectEnvelope(post, 415, 'unsupported_media_type');
    });

    it('answers Expect: foo with 417 expectation_failed', async () => {
      const answer = await rawRequest(live.port, 'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\n\r\n');
      expectEnvelope(answer, 417, 'expectation_failed');
    });

    it('still answers ordinary requests (and Expect: 100-continue) as before', async () => {
      const answer = await rawRequest(
        live.port,
        'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      );
      expect(answer.status).toBe(200);
      const body = '{"login":"nobody","password":"wrong-password"}';
      const login = await rawRequest(
        live.port,
        `POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      expect(login.text).toContain('HTTP/1.1 100 Continue');
      expect(login.text).toContain('HTTP/1.1 401 ');
    });

    it('logs nothing at warn or above when a client resets its connection right after sending', async () => {
      const before = live.logs.length;
      const requests = [
        'GET /v1/status HTTP/1.1\r\nHost: localhost\r\n\r\n',
        'GET /v1/games HTTP/1.1\r\nHost: localhost\r\n\r\n',
        'POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 45\r\n\r\n{"login":"a","password":"b"}',
      ];
      for (const request of requests) {
        for (let delay = 0; delay < 4; delay++) {
          const socket = net.connect(live.port, '127.0.0.1');
          await once(socket, 'connect');
          socket.write(request);
          if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
          socket.resetAndDestroy();
        }
      }
      // the requests' work finishes after the resets; a status call that answers comes after it
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(
        (await rawRequest(live.port, 'GET /v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).status,
      ).toBe(200);
      const loud = live.logs.slice(before).filter((line) => line.level >= 40);
      expect(loud).toEqual([]);
    });
  });
}
