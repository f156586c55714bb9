// GET /metrics: the Prometheus text after real requests (exact deltas), the route patterns, the pool, the token rule.
import { expect, it } from 'vitest';
import { sweepIdleSessions } from '../../src/modules/play/play.service.js';
import { createGame, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect, type Harness } from '../helpers/harness.js';
import { capturingLogger } from '../helpers/log.js';
import { playApi, playing } from '../play/play-helpers.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none yet). */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

async function scrape(h: Harness, headers: Record<string, string> = {}) {
  const res = await h.http.get('/metrics', { headers });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = parse(res.text);
  return {
    text: res.text,
    samples,
    value: (name: string, labels?: Record<string, string>) => sampleValue(samples, name, labels),
  };
}

/** Reads every counter before `act` and returns the change of one after it. */
async function deltas(h: Harness, act: () => Promise<void>) {
  const before = await scrape(h);
  await act();
  const after = await scrape(h);
  return (name: string, labels?: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
}

eachDialect('metrics: GET /metrics', (h) => {
  const api = playApi(h);

  it('serves the process and Node.js defaults in the Prometheus text format', async () => {
    const { samples } = await scrape(h);
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('counts a start, heartbeats with their credited seconds and an end by reason', async () => {
    const change = await deltas(h, async () => {
      const p = await playing(h);
      h.clock.advance(30);
      expect((await api.heartbeat(p.token, p.session)).status).toBe(200);
      h.clock.advance(45);
      expect((await api.heartbeat(p.token, p.session)).status).toBe(200);
      h.clock.advance(10);
      expect((await api.end(p.token, p.session, 'quit')).status).toBe(200);
    });
    expect(change('gameplatform_play_sessions_started_total')).toBe(1);
    expect(change('gameplatform_heartbeats_total')).toBe(2);
    expect(change('gameplatform_credited_seconds_total')).toBe(85);
    expect(change('gameplatform_play_sessions_ended_total', { reason: 'quit' })).toBe(1);
    expect(change('gameplatform_play_sessions_ended_total')).toBe(1);
    const heartbeat = { method: 'POST', route: '/v1/play/heartbeat', status: '200' };
    expect(change('http_requests_total', heartbeat)).toBe(2);
    expect(change('http_request_duration_seconds_count', heartbeat)).toBe(2);
    expect(change('http_request_duration_seconds_bucket', { ...heartbeat, le: '+Inf' })).toBe(2);
  });

  it('counts a refused heartbeat by its status, without counting it as a heartbeat', async () => {
    const { token } = await createPlayerWithToken(h.ctx);
    const change = await deltas(h, async () => {
      expect((await api.heartbeat(token, 'ps_unknown')).status).toBe(404);
    });
    expect(change('gameplatform_heartbeats_total')).toBe(0);
    expect(change('http_requests_total', { route: '/v1/play/heartbeat', status: '404' })).toBe(1);
  });

  it('reports the active play sessions and counts sessions replaced and closed by the sweep', async () => {
    const p = await playing(h);
    const open = (await scrape(h)).value('gameplatform_play_sessions_active');
    const change = await deltas(h, async () => {
      h.clock.advance(20);
      expect((await api.start(p.token, p.game.slug)).status).toBe(200); // replaces the first session
      h.clock.advance(h.config.session_idle_timeout + 1);
      expect(await sweepIdleSessions(h.ctx)).toBeGreaterThanOrEqual(1);
    });
    expect(change('gameplatform_play_sessions_started_total')).toBe(1);
    expect(change('gameplatform_play_sessions_ended_total', { reason: 'replaced' })).toBe(1);
    expect(change('gameplatform_credited_seconds_total')).toBe(20);
    expect(change('gameplatform_play_sessions_ended_total', { reason: 'timeout' })).toBe(open);
    expect((await scrape(h)).value('gameplatform_play_sessions_active')).toBe(0);
    await playing(h);
    expect((await scrape(h)).value('gameplatform_play_sessions_active')).toBe(1);
  });

  it('counts scores stored and replayed', async () => {
    const game = await createGame(h.ctx);
    const { token } = await createPlayerWithToken(h.ctx);
    const url = `/v1/games/${game.slug}/scores`;
    const change = await deltas(h, async () => {
      expect((await h.http.post(url, { token, body: { score: 10 } })).status).toBe(201);
      const headers = { 'idempotency-key': 'metrics-1' };
      expect((await h.http.post(url, { token, body: { score: 20 }, headers })).status).toBe(201);
      expect((await h.http.post(url, { token, body: { score: 20 }, headers })).status).toBe(201);
      expect((await h.http.post(url, { token, body: { score: 'x' } })).status).toBe(422);
    });
    expect(change('gameplatform_score_submissions_total', { outcome: 'stored' })).toBe(2);
    expect(change('gameplatform_score_submissions_total', { outcome: 'replayed' })).toBe(1);
    expect(change('http_requests_total', { method: 'POST', route: '/v1/games/:slug/scores', status: '422' })).toBe(1);
  });

  it('counts state saves and version conflicts, by route pattern and never by the raw URL', async () => {
    const game = await createGame(h.ctx, { save_slots: 3 });
    const { token } = await createPlayerWithToken(h.ctx);
    const slot = `/v1/games/${game.slug}/states/1`;
    let text = '';
    const change = await deltas(h, async () => {
      expect((await h.http.put(slot, { token, body: { state: { a: 1 } } })).status).toBe(201);
      expect((await h.http.put(slot, { token, body: { state: { a: 2 }, expected_version: 1 } })).status).toBe(200);
      expect((await h.http.put(slot, { token, body: { state: { a: 3 }, expected_version: 1 } })).status).toBe(409);
      expect((await h.http.put(slot, { token, body: { state: { a: 3 }, expected_version: 0 } })).status).toBe(409);
      text = (await scrape(h)).text;
    });
    expect(change('gameplatform_state_saves_total')).toBe(2);
    expect(change('gameplatform_state_version_conflicts_total')).toBe(2);
    expect(change('http_requests_total', { method: 'PUT', route: '/v1/games/:slug/states/:slot', status: '409' })).toBe(
      2,
    );
    expect(text).not.toContain(game.slug);
  });

  it('labels a request that matched no route as unmatched', async () => {
    const change = await deltas(h, async () => {
      expect((await h.http.get('/v1/no/such/route/4711')).status).toBe(404);
    });
    expect(change('http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
  });

  it('reports the database pool', async () => {
    await Promise.all([1, 2, 3].map(() => h.http.get('/v1/games')));
    const { value } = await scrape(h);
    if (h.dialect === 'sqlite') expect(value('gameplatform_db_pool_size')).toBe(1);
    else expect(value('gameplatform_db_pool_size')).toBeGreaterThanOrEqual(1);
    expect(value('gameplatform_db_pool_in_use')).toBe(0);
    expect(value('gameplatform_db_pool_waiting')).toBe(0);
  });

  it('is open without metrics_token, and listed in the OpenAPI document', async () => {
    expect((await h.http.get('/metrics', { headers: { authorization: 'Bearer anything' } })).status).toBe(200);
    const doc = (await h.http.get('/v1/openapi.json')).body;
    const operation = doc.paths['/metrics'].get;
    expect(operation.tags).toEqual(['operations']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '500']));
    expect(Object.keys(operation.responses[200].content)).toEqual(['text/plain']);
    expect(operation.responses[429]).toBeUndefined(); // not rate-limited
    expect(operation.security).toEqual([{}, { metricsToken: [] }]);
  });
});

eachDialect(
  'metrics: rate-limit refusals',
  (h) => {
    it('counts each 429 by its limit, and is never limited itself', async () => {
      const ip = '10.9.8.7';
      const get = (url: string) => h.app.inject({ method: 'GET', url, remoteAddress: ip });
      const before = parse((await get('/metrics')).body);
      for (let i = 0; i < 2; i++) expect((await get('/v1/status')).statusCode).toBe(200);
      expect((await get('/v1/status')).statusCode).toBe(429);
      expect((await get('/v1/games')).statusCode).toBe(429);
      for (let i = 0; i < 5; i++) expect((await get('/metrics')).statusCode).toBe(200);
      const after = parse((await get('/metrics')).body);
      const change = (name: string, labels?: Record<string, string>) =>
        sampleValue(after, name, labels) - sampleValue(before, name, labels);
      expect(change('gameplatform_rate_limited_total', { limit: 'default' })).toBe(2);
      expect(change('gameplatform_rate_limited_total')).toBe(2);
      expect(change('http_requests_total', { route: '/v1/status', status: '429' })).toBe(1);
      expect(change('http_requests_total', { route: '/metrics', status: '200' })).toBe(6);
    });
  },
  { settings: { 'rate_limits.default.max': 2 } },
);

eachDialect(
  'metrics: metrics_token',
  (h) => {
    it.each([
      ['no Authorization header', {}],
      ['another token', { authorization: 'Bearer not-the-metrics-token' }],
      ['the token without Bearer', { authorization: 's3cret-metrics-token' }],
      ['a player token', { authorization: 'Bearer agp_0000000000000000000000000000000000000000000' }],
    ])('answers 401 unauthenticated in the envelope to %s', async (_what, headers) => {
      const res = await h.http.get('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        ok: false,
        error: { code: 'unauthenticated', message: expect.stringContaining('metrics_token') },
      });
      expect(res.text).not.toContain('http_requests_total');
    });

    it('serves the metrics with Authorization: Bearer <metrics_token>', async () => {
      const { text } = await scrape(h, { authorization: 'Bearer s3cret-metrics-token' });
      expect(text).toContain('# TYPE gameplatform_heartbeats_total counter');
    });
  },
  { settings: { metrics_token: 's3cret-metrics-token' } },
);

const log = capturingLogger('info');
eachDialect(
  'metrics: the log',
  (h) => {
    it('logs no line at info for a scrape, while other requests are logged', async () => {
      log.lines.length = 0;
      for (let i = 0; i < 3; i++) expect((await h.http.get('/metrics')).status).toBe(200);
      expect(log.lines).toEqual([]);
      expect((await h.http.get('/v1/status')).status).toBe(200);
      expect(log.lines.length).toBeGreaterThan(0);
    });
  },
  { logger: log.logger },
);
