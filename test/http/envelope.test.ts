// The envelope and error table (docs/api.md, "Everywhere") for every kind of failure, through probe routes added for the test.
import { Type } from '@sinclair/typebox';
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';

const probe = Type.Object(
  {
    name: Type.String({ minLength: 2, maxLength: 5 }),
    count: Type.Integer({ minimum: 0 }),
    nested: Type.Optional(Type.Object({ flag: Type.Boolean() })),
  },
  { additionalProperties: false },
);

eachDialect(
  'http: envelope and errors',
  (h) => {
    it('wraps success in {ok, data}', async () => {
      const res = await h.http.get('/v1/status');
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('answers an unknown path with 404 not_found', async () => {
      const res = await h.http.get('/v1/no/such/thing');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ ok: false, error: { code: 'not_found', message: expect.any(String) } });
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const res = await h.http.delete('/v1/status');
      expect(res.status).toBe(405);
      expect(res.body.error.code).toBe('method_not_allowed');
      expect(res.headers.allow).toContain('GET');
    });

    it('answers unparseable JSON with 400 invalid_json', async () => {
      const res = await h.http.post('/v1/test/probe', { body: '{"name": "ab", ', contentType: 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_json');
    });

    it('refuses prototype poisoning as invalid JSON', async () => {
      const res = await h.http.post('/v1/test/probe', {
        body: '{"name":"ab","count":1,"__proto__":{"x":1}}',
        contentType: 'application/json',
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_json');
    });

    it.each([
      ['text/plain', 'name=ab'],
      ['application/x-www-form-urlencoded', 'name=ab&count=1'],
      ['multipart/form-data; boundary=x', '--x--'],
    ])('answers a %s body with 415', async (type, body) => {
      const res = await h.http.post('/v1/test/probe', { body, contentType: type });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    });

    it('answers a body over the limit with 413 payload_too_large', async () => {
      const res = await h.http.post('/v1/test/probe', { body: { name: 'x'.repeat(70 * 1024), count: 1 } });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('payload_too_large');
    });

    it('answers invalid fields with 422 and error.fields naming each', async () => {
      const res = await h.http.post('/v1/test/probe', {
        body: { name: 'toolongname', count: '3', nested: { flag: 'yes' }, extra: 1 },
      });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('validation_failed');
      expect(Object.keys(res.body.error.fields).sort()).toEqual(['count', 'extra', 'name', 'nested.flag']);
    });

    it('names a missing field as required', async () => {
      const res = await h.http.post('/v1/test/probe', { body: { name: 'abc' } });
      expect(res.status).toBe(422);
      expect(res.body.error.fields).toEqual({ count: 'is required' });
    });

    it('treats an empty JSON body as no body (422, not 400)', async () => {
      const res = await h.http.post('/v1/test/probe', { body: '', contentType: 'application/json' });
      expect(res.status).toBe(422);
      expect(res.body.error.fields).toHaveProperty('body');
    });

    it('answers a body that is not an object with 422', async () => {
      const res = await h.http.post('/v1/test/probe', { body: [1, 2] });
      expect(res.status).toBe(422);
      expect(res.body.error.fields.body).toBe('must be a JSON object');
    });

    it('coerces query strings but validates them', async () => {
      expect((await h.http.get('/v1/test/query?n=5')).body.data).toEqual({ n: 5 });
      const bad = await h.http.get('/v1/test/query?n=five');
      expect(bad.status).toBe(422);
      expect(bad.body.error.fields).toHaveProperty('n');
    });

    it('hides internals of an unexpected error behind 500 internal_error with a request id', async () => {
      const res = await h.http.get('/v1/test/boom');
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(res.body.error.message).not.toMatch(/secret|password|stack/i);
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    });

    it('accepts a JSON body with a charset', async () => {
      const res = await h.http.post('/v1/test/probe', {
        body: JSON.stringify({ name: 'ab', count: 1 }),
        contentType: 'application/json; charset=utf-8',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ name: 'ab', count: 1 });
    });

    it('answers a malformed URL with 400 bad_request in the envelope', async () => {
      const res = await h.http.get('/v1/games/%E0%A4%A');
      expect(res.status).toBe(400);
      expect(res.body.ok).toBe(false);
    });
  },
  {
    beforeReady: (app) => {
      app.post('/v1/test/probe', { schema: { body: probe }, config: { auth: 'none' } }, async (request) => ({
        ok: true,
        data: request.body,
      }));
      app.get(
        '/v1/test/query',
        { schema: { querystring: Type.Object({ n: Type.Integer() }) }, config: { auth: 'none' } },
        async (request) => ({
          ok: true,
          data: request.query,
        }),
      );
      app.get('/v1/test/boom', { config: { auth: 'none' } }, async () => {
        throw new Error('secret database password in a stack trace');
      });
    },
  },
);
