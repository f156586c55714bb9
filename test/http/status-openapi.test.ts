// GET /v1/status, the OpenAPI document and the /docs page.
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

  it('serves an OpenAPI 3.1 document of version 1.0.0 with every /v1 route', async () => {
    const res = await h.http.get('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths)).toContain('/v1/status');
    expect(Object.keys(doc.paths).every((p: string) => p.startsWith('/v1/'))).toBe(true);
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

  it('renders the document at /docs', async () => {
    const res = await h.http.get('/docs/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
