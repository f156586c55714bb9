// The metrics listener (metrics_port): Prometheus scrapes each instance over plain HTTP on an internal address while
// the public port stays HTTPS-only in production; /metrics leaves the public port; the probes are there too.
import { beforeAll, expect, it } from 'vitest';
import { listenForMetrics } from '../../src/modules/status/metrics-listener.js';
import { serviceVersion } from '../../src/lib/version.js';
import { createHarness, eachDialect } from '../helpers/harness.js';
import { enabledDialects } from '../helpers/dialects.js';
import { httpGet } from '../helpers/live.js';
import { freePort } from '../helpers/ports.js';
import { parseSamples, sampleValue } from '../helpers/prometheus.js';

const production = {
  public_url: 'https://play.example.com',
  trust_proxy: 'true',
  secret: 'x'.repeat(40),
};
/** Filled before the harnesses are built (their hooks run after this one). */
const settings: Record<string, unknown> = { ...production };
const tokenSettings: Record<string, unknown> = { ...production, metrics_token: 'scrape-me-secret' };
beforeAll(async () => {
  settings.metrics_port = await freePort();
  tokenSettings.metrics_port = await freePort();
});

const https = { 'x-forwarded-proto': 'https' };

eachDialect(
  'metrics listener in production',
  (h) => {
    let port: number;
    beforeAll(async () => {
      const internal = await listenForMetrics(h.app);
      expect(internal).toBeDefined();
      port = h.config.metrics_port;
    });

    it('serves /metrics over plain HTTP on metrics_port, with the build info', async () => {
      expect(h.config.metrics_host).toBe('127.0.0.1');
      const res = await httpGet(port, '/metrics');
      expect(res.status).toBe(200);
      const samples = parseSamples(res.body);
      expect(
        sampleValue(samples, 'gameplatform_build_info', {
          version: serviceVersion(),
          node_version: process.versions.node,
          dialect: h.dialect,
        }),
      ).toBe(1);
      expect(res.body).toContain('# TYPE http_requests_total counter');
    });

    it('answers the probes there too, and 404 in the envelope for anything else', async () => {
      expect(JSON.parse((await httpGet(port, '/readyz')).body)).toEqual({ ok: true, data: { status: 'ready' } });
      expect((await httpGet(port, '/healthz')).status).toBe(200);
      const other = await httpGet(port, '/v1/status');
      expect(other.status).toBe(404);
      expect(JSON.parse(other.body).error.code).toBe('not_found');
    });

    it('keeps the public port HTTPS-only, and /metrics off it', async () => {
      expect((await h.http.get('/metrics')).body.error.code).toBe('https_required');
      expect((await h.http.get('/v1/status')).body.error.code).toBe('https_required');
      const overHttps = await h.http.get('/metrics', { headers: https });
      expect(overHttps.status).toBe(404);
      expect((await h.http.get('/v1/status', { headers: https })).status).toBe(200);
      const doc = (await h.http.get('/v1/openapi.json', { headers: https })).body;
      expect(doc.paths['/metrics']).toBeUndefined();
    });

    it('counts the public requests in what the listener serves', async () => {
      const before = parseSamples((await httpGet(port, '/metrics')).body);
      for (let i = 0; i < 3; i++) await h.http.get('/v1/status', { headers: https });
      const after = parseSamples((await httpGet(port, '/metrics')).body);
      const labels = { route: '/v1/status', status: '200' };
      expect(
        sampleValue(after, 'http_requests_total', labels) - sampleValue(before, 'http_requests_total', labels),
      ).toBe(3);
    });
  },
  { env: 'production', settings },
);

eachDialect(
  'metrics listener with metrics_token',
  (h) => {
    it('still asks for the token', async () => {
      await listenForMetrics(h.app);
      const port = h.config.metrics_port;
      expect((await httpGet(port, '/metrics')).status).toBe(401);
      expect((await httpGet(port, '/readyz')).status).toBe(200);
    });
  },
  { env: 'production', settings: tokenSettings },
);

for (const dialect of enabledDialects()) {
  it(`says not ready on the listener once a shutdown begins, then closes it with the app [${dialect}]`, async () => {
    const port = await freePort();
    const during: Record<string, number> = {};
    const h = await createHarness(dialect, {
      settings: { metrics_port: port },
      beforeReady: (app) => {
        app.addHook('preClose', async () => {
          during.readyz = (await httpGet(port, '/readyz')).status;
          during.healthz = (await httpGet(port, '/healthz')).status;
        });
      },
    });
    await listenForMetrics(h.app);
    expect((await httpGet(port, '/readyz')).status).toBe(200);
    await h.close();
    expect(during).toEqual({ readyz: 503, healthz: 200 });
    await expect(httpGet(port, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
}

it('refuses a metrics_port equal to the public port', async () => {
  const { loadConfig } = await import('../../src/config.js');
  expect(() => loadConfig({ env: { PORT: '9100', GP_METRICS_PORT: '9100' }, cwd: '/nonexistent' })).toThrow(
    /metrics_port \(GP_METRICS_PORT\) must differ from port/,
  );
});
