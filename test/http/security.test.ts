// Request rules (docs/api.md, "Everywhere"): Origin check, no CORS headers, nosniff, HTTPS and HSTS in production.
import { expect, it } from 'vitest';
import { TEST_ORIGIN, eachDialect } from '../helpers/harness.js';

eachDialect('http: security', (h) => {
  it('lets a same-origin request through', async () => {
    const res = await h.http.get('/v1/status', { headers: { origin: TEST_ORIGIN } });
    expect(res.status).toBe(200);
  });

  it.each(['https://evil.example', 'null', 'http://localhost:9999', 'not a url'])(
    'refuses Origin %s with 403 cross_origin_forbidden',
    async (origin) => {
      const res = await h.http.post('/v1/status', { headers: { origin } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('cross_origin_forbidden');
    },
  );

  it('never sends an Access-Control-* header, even to a preflight', async () => {
    const responses = await Promise.all([
      h.http.get('/v1/status'),
      h.http.options('/v1/status', {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      }),
      h.http.options('/v1/status', { headers: { origin: TEST_ORIGIN, 'access-control-request-method': 'GET' } }),
      h.http.get('/v1/nope'),
    ]);
    for (const res of responses) {
      expect(Object.keys(res.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
    }
  });

  it('sends nosniff on every response', async () => {
    for (const url of ['/v1/status', '/v1/nope']) {
      expect((await h.http.get(url)).headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('sends no HSTS outside production', async () => {
    expect((await h.http.get('/v1/status')).headers['strict-transport-security']).toBeUndefined();
  });
});

eachDialect(
  'http: production',
  (h) => {
    it('refuses plain HTTP with 403 https_required', async () => {
      const res = await h.http.get('/v1/status');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('https_required');
    });

    it('serves HTTPS forwarded by the trusted proxy, with HSTS', async () => {
      const res = await h.http.get('/v1/status', { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.status).toBe(200);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    });
  },
  {
    env: 'production',
    settings: { public_url: 'https://play.example.com', trust_proxy: 'true', secret: 'x'.repeat(40) },
  },
);
