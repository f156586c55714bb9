// OpenTelemetry tracing with an in-memory exporter: each request is one trace, its root the request span, with a span
// per PostgreSQL statement it made; an incoming traceparent is continued; probes make none. Off by default.
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { startTracing, type Tracing } from '../../src/services/tracing/tracing.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { eachDialect, testConfig, type HarnessOptions } from '../helpers/harness.js';
import { createTestDatabase } from '../helpers/database.js';

const exporter = new InMemorySpanExporter();
/** Filled before the harnesses are built (their hooks run after this one). */
const options: HarnessOptions = {};
/** With Redis counting the rate limits (the shared server at 6379, keys of this run's own). */
const withRedis: HarnessOptions = {
  settings: { redis_url: 'redis://127.0.0.1:6379', redis_prefix: `gp-trace-${process.pid}-${Date.now()}:` },
};
let tracing: Tracing | undefined;
beforeAll(async () => {
  tracing = await startTracing(loadConfig({ env: {}, cwd: '/nonexistent' }), { exporter });
  options.tracing = tracing;
  withRedis.tracing = tracing;
});
afterAll(async () => {
  await tracing?.shutdown();
});

/** The root span of the request named `name` (a SERVER span without a parent), once it has ended. */
async function requestSpan(name: string, since: number): Promise<ReadableSpan> {
  for (;;) {
    const found = exporter
      .getFinishedSpans()
      .slice(since)
      .find((s) => s.name === name && s.kind === SpanKind.SERVER);
    if (found) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const traceOf = (span: ReadableSpan) =>
  exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === span.spanContext().traceId);

eachDialect(
  'tracing: one trace per request',
  (h) => {
    it('makes each request a trace of its own, with a span per database statement on PostgreSQL', async () => {
      const { slug } = await publishFixture(h.ctx, 'orbit-dash');
      const { token } = await createPlayerWithToken(h.ctx);
      const since = exporter.getFinishedSpans().length;
      expect((await h.http.get('/v1/games')).status).toBe(200);
      expect((await h.http.post(`/v1/games/${slug}/scores`, { token, body: { score: 42 } })).status).toBe(201);
      const list = await requestSpan('GET /v1/games', since);
      const submit = await requestSpan('POST /v1/games/:slug/scores', since);
      expect(list.parentSpanContext).toBeUndefined();
      expect(submit.spanContext().traceId).not.toBe(list.spanContext().traceId);
      expect(list.attributes['http.route']).toBe('/v1/games');
      for (const root of [list, submit]) {
        const spans = traceOf(root);
        const database = spans.filter((s) => s.instrumentationScope.name.includes('instrumentation-pg'));
        if (h.dialect === 'postgres') {
          expect(database.length).toBeGreaterThan(0);
          for (const span of database) {
            expect(span.attributes['db.system.name'] ?? span.attributes['db.system']).toBe('postgresql');
            expect(span.kind).toBe(SpanKind.CLIENT);
          }
        } else expect(database).toEqual([]);
        // Every span of the trace hangs from the request's.
        const ids = new Set(spans.map((s) => s.spanContext().spanId));
        for (const span of spans) if (span !== root) expect(ids.has(span.parentSpanContext!.spanId)).toBe(true);
      }
    });

    it("continues the caller's trace from its traceparent header", async () => {
      const since = exporter.getFinishedSpans().length;
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parent = '00f067aa0ba902b7';
      await h.http.get('/v1/status', { headers: { traceparent: `00-${traceId}-${parent}-01` } });
      const span = await requestSpan('GET /v1/status', since);
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent);
    });

    it('makes no trace for the probes and the metrics', async () => {
      const since = exporter.getFinishedSpans().length;
      for (const path of ['/healthz', '/readyz', '/metrics']) expect((await h.http.get(path)).status).toBe(200);
      await h.http.get('/v1/status');
      await requestSpan('GET /v1/status', since);
      const names = exporter
        .getFinishedSpans()
        .slice(since)
        .map((s) => s.name);
      expect(names.filter((n) => /healthz|readyz|metrics/.test(n))).toEqual([]);
    });
  },
  options,
);

eachDialect(
  'tracing: Redis commands',
  (h) => {
    it("puts the rate limit's Redis commands in the request's trace", async () => {
      const since = exporter.getFinishedSpans().length;
      expect((await h.http.get('/v1/status')).status).toBe(200);
      const root = await requestSpan('GET /v1/status', since);
      const redis = traceOf(root).filter((s) => s.instrumentationScope.name.includes('instrumentation-ioredis'));
      expect(redis.length).toBeGreaterThan(0);
      expect(redis[0]!.kind).toBe(SpanKind.CLIENT);
    });
  },
  withRedis,
);

describe('tracing settings', () => {
  const config = (env: Record<string, string>) => loadConfig({ env, cwd: '/nonexistent' });

  it('is off by default, and starts nothing then', async () => {
    const off = config({});
    expect(off.tracing.enabled).toBe(false);
    expect(await startTracing(off)).toBeUndefined();
    const testDb = await createTestDatabase('sqlite');
    const database = openDatabase(testDb.url);
    const app = await buildApp({ config: testConfig(testDb.dataDir, testDb.url), database });
    expect(app.hasRequestDecorator('opentelemetry')).toBe(false);
    await app.close();
    await database.destroy();
    await testDb.drop();
  });

  it('turns on with the standard OTEL_* variables', () => {
    const on = config({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/',
      OTEL_SERVICE_NAME: 'games-eu',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc,x-team=ops',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod',
    }).tracing;
    expect(on).toEqual({
      enabled: true,
      service_name: 'games-eu',
      exporters: ['otlp'],
      protocol: 'http/protobuf',
      endpoint: 'http://collector:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'ops' },
      sampler: 'parentbased_traceidratio',
      sampler_ratio: 0.25,
      resource_attributes: { 'deployment.environment': 'prod' },
    });
    expect(config({ OTEL_TRACES_EXPORTER: 'console' }).tracing.exporters).toEqual(['console']);
    expect(config({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).tracing.enabled).toBe(
      false,
    );
    expect(config({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }).tracing.enabled).toBe(false);
    expect(
      config({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).tracing.endpoint,
    ).toBe('http://c:4317');
  });

  it('names the variable of a bad value', () => {
    expect(() => config({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(ConfigError);
    expect(() => config({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => config({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => config({ OTEL_EXPORTER_OTLP_PROTOCOL: 'udp' })).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL/);
  });
});
