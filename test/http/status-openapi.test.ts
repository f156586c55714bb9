// GET /v1/status, the OpenAPI document and the /docs page.
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/http/errors.js';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced } from '../helpers/openapi.js';

eachDialect('status and openapi', (h) => {
  it('reports version, API version, server time from the clock and the counts', async () => {
    h.clock.set('2026-11-21T08:09:10Z');
    const res = await h.http.get('/v1/status');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      api_version: '1.0.0',
      server_time: '2026-11-21 08:09:10',
      games: 0,
      players_online: 0,
    });
  });

  it('serves an OpenAPI 3.1 document of version 1.0.0 with every /v1 route and the operations endpoints', async () => {
    const res = await h.http.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths)).toContain('/v1/status');
    // the operations endpoints (tag operations) sit at the root of public_url
    expect(Object.keys(doc.paths).filter((p: string) => !p.startsWith('/v1/'))).toEqual(
      expect.arrayContaining(['/healthz', '/metrics', '/readyz']),
    );
    expect(
      Object.keys(doc.paths).every(
        (p: string) => p.startsWith('/v1/') || ['/metrics', '/healthz', '/readyz'].includes(p),
      ),
    ).toBe(true);
  });

  it('lists the error responses of each route and every error code and setting', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const status = doc.paths['/v1/status'].get;
    expect(Object.keys(status.responses)).toEqual(expect.arrayContaining(['200', '403', '429', '500']));
    for (const code of Object.keys(ERROR_CATALOG)) expect(doc.info.description).toContain(`\`${code}\``);
    for (const setting of ['free_seconds_per_day', 'reset_timezone', 'api.token_ttl_days', 'rate_limits.login.max']) {
      expect(doc.info.description).toContain(`\`${setting}\``);
    }
  });

  it('describes the rate-limit headers on every response, and Retry-After on every 429', async () => {
    const doc = (await h.http.get('/v1/openapi.json')).body;
    let responses = 0;
    // every counted route: the API under /v1 (the probes and /metrics are never rate-limited)
    const api = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .map(([, operations]) => operations);
    for (const operations of api as Array<
      Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
    >) {
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          responses++;
          expect(Object.keys(response.headers ?? {})).toEqual(
            expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
          );
          if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
        }
      }
    }
    expect(responses).toBeGreaterThan(100);
    expect(doc.info.description).toContain('rate_limits.developer_key');
  });

  it('renders the document at /docs: every operation by tag, with its errors, revalidated by ETag', async () => {
    const res = await h.http.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<meta name="viewport"');
    expect(res.text).toContain('href="/v1/openapi.json"');
    const doc = (await h.http.get('/v1/openapi.json')).body;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      for (const op of Object.values(item)) expect(res.text, path).toContain(`id="${op.operationId}"`);
    }
    expect(res.text).toContain('<code>email_taken</code>');
    expect(res.text).toContain('id="schema-Game"');
    // About 5 kB an operation (its parameters, bodies, responses, headers and errors): a budget per operation, so the
    // page grows with the API and not faster.
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((item) => Object.keys(item)).length;
    expect(res.text.length / operations).toBeLessThan(6_000);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await h.http.get('/docs', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.vary).toBe('Accept-Encoding, Cookie');
    const refused = await h.app.inject({ method: 'GET', url: '/docs', headers: { 'accept-encoding': 'gzip;q=0, br' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(res.text);
    const zipped = await h.app.inject({ method: 'GET', url: '/docs', headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    // Compressed, about 500 bytes an operation: the same budget per operation, so the page grows with the API only.
    expect(zipped.rawPayload.length / operations).toBeLessThan(700);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(res.text);
    expect((await h.http.get('/docs/')).headers.location).toBe('/docs');
  });
});
