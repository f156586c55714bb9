// OpenTelemetry tracing, off unless the OTEL_* variables name an exporter (docs/operations.md, "Tracing"). Off, nothing
// of OpenTelemetry is loaded and no hook is added: requests cost what they cost without it. On, each request is one
// trace (@fastify/otel's request span, continuing an incoming `traceparent`) with a span per PostgreSQL statement and
// Redis command made for it.
import { createRequire } from 'node:module';
import type { FastifyPluginCallback } from 'fastify';
import type { Config } from '../../config.js';
import type { TracingSettings } from '../../lib/tracing-settings.js';
import { serviceVersion } from '../../lib/version.js';
import type { Sampler, SpanExporter } from '@opentelemetry/sdk-trace';

export interface Tracing {
  /** registered by buildApp before every other hook and route */
  plugin: FastifyPluginCallback;
  /** exports what is still buffered, then stops */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** an exporter instead of the settings' (tests: an in-memory one); spans then go out one by one */
  exporter?: SpanExporter;
}

/** Routes whose requests make no trace: probes and scrapes come every few seconds and tell nothing. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

async function exportersFor(settings: TracingSettings): Promise<SpanExporter[]> {
  const exporters: SpanExporter[] = [];
  for (const kind of settings.exporters) {
    if (kind === 'console') {
      const { ConsoleSpanExporter } = await import('@opentelemetry/sdk-trace');
      exporters.push(new ConsoleSpanExporter());
      continue;
    }
    const url = settings.endpoint || undefined;
    if (settings.protocol === 'grpc') {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
      exporters.push(new OTLPTraceExporter({ url }));
    } else if (settings.protocol === 'http/json') {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      exporters.push(new OTLPTraceExporter({ url, headers: settings.headers }));
    } else {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      exporters.push(new OTLPTraceExporter({ url, headers: settings.headers }));
    }
  }
  return exporters;
}

async function samplerFor(settings: TracingSettings): Promise<Sampler> {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = await import(
    '@opentelemetry/sdk-trace'
  );
  const root = settings.sampler.endsWith('traceidratio')
    ? new TraceIdRatioBasedSampler(settings.sampler_ratio)
    : settings.sampler.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new AlwaysOnSampler();
  return settings.sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/**
 * pg and ioredis were loaded before tracing started (ES modules are imported before any code runs): requiring them
 * again through require-in-the-middle, now hooked by the instrumentations, patches the loaded modules' prototypes,
 * which every import of them shares.
 */
function patchLoadedModules(): void {
  const require = createRequire(import.meta.url);
  for (const name of ['pg', 'pg-pool', 'ioredis']) {
    try {
      require(name);
    } catch {
      // ioredis is optional at run time (only with redis_url); pg-pool comes with pg
    }
  }
}

/** Starts the SDK when the settings turn tracing on; undefined (and nothing loaded) when they do not. */
export async function startTracing(config: Config, options: TracingOptions = {}): Promise<Tracing | undefined> {
  const settings = config.tracing;
  if (!settings.enabled && !options.exporter) return undefined;
  const [{ NodeSDK }, { BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
  ]);
  const [{ PgInstrumentation }, { IORedisInstrumentation }, { FastifyOtelInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@fastify/otel'),
  ]);
  const spanProcessors = options.exporter
    ? [new SimpleSpanProcessor({ exporter: options.exporter })]
    : (await exportersFor(settings)).map((exporter) => new BatchSpanProcessor({ exporter }));
  const fastify = new FastifyOtelInstrumentation({
    instrumentHooks: false,
    ignorePaths: (route: { url?: string }) => UNTRACED.has(route.url ?? ''),
    requestHook: (span, request) => span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`),
  });
  const sdk = new NodeSDK({
    autoDetectResources: false,
    resource: resourceFromAttributes({
      ...settings.resource_attributes,
      'service.name': settings.service_name,
      'service.version': serviceVersion(),
    }),
    sampler: await samplerFor(settings),
    spanProcessors,
    instrumentations: [
      // Statements and commands outside a request (the sweeps, mail retries) make no trace of their own.
      new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true, enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      fastify,
    ],
  });
  sdk.start();
  patchLoadedModules();
  return { plugin: fastify.plugin(), shutdown: () => sdk.shutdown() };
}
