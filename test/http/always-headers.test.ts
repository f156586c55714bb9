// nosniff on every answer, refusals before the router included; a body in an encoding the service does not decode is 415.
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';

eachDialect('http: headers on every answer, body encodings', (h) => {
  it('sends nosniff (and the other security headers) with 403 cross_origin_forbidden', async () => {
    const res = await h.http.post('/v1/auth/login', {
      headers: { origin: 'https://evil.example' },
      body: { login: 'a', password: 'b' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin_forbidden');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('sends nosniff with the 400 bad_request of a URL the router cannot decode', async () => {
    const res = await h.http.get('/v1/games/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['gzip', 'br', 'deflate', 'x-custom'])(
    'answers a JSON body sent with Content-Encoding: %s with 415 unsupported_media_type',
    async (encoding) => {
      const body = gzipSync(JSON.stringify({ login: 'nobody', password: 'password1' }));
      const res = await h.http.post('/v1/auth/login', {
        body,
        contentType: 'application/json',
        headers: { 'content-encoding': encoding },
      });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('takes Content-Encoding: identity as no encoding', async () => {
    const res = await h.http.post('/v1/auth/login', {
      body: JSON.stringify({ login: 'nobody', password: 'password1' }),
      contentType: 'application/json',
      headers: { 'content-encoding': 'identity' },
    });
    expect(res.status).toBe(401);
  });
});
