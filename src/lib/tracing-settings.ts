// OpenTelemetry tracing's settings, from the standard OTEL_* variables (config.ts hands them in: only it reads the
// environment). Off unless an exporter or an OTLP endpoint is named (docs/operations.md, "Tracing").

export type TracingProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type TracingSampler =
  | 'always_on'
  | 'always_off'
  | 'traceidratio'
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio';

export interface TracingSettings {
  enabled: boolean;
  /** service.name of every span (OTEL_SERVICE_NAME) */
  service_name: string;
  /** where spans go: OTLP, and/or the console (a line per span on stdout, for trying it out) */
  exporters: Array<'otlp' | 'console'>;
  protocol: TracingProtocol;
  /** the OTLP traces endpoint; '' for the exporter's default (http://localhost:4318/v1/traces, grpc localhost:4317) */
  endpoint: string;
  headers: Record<string, string>;
  sampler: TracingSampler;
  /** the ratio of traceidratio samplers (0 to 1) */
  sampler_ratio: number;
  /** OTEL_RESOURCE_ATTRIBUTES: more attributes of every span's resource */
  resource_attributes: Record<string, string>;
}

const PROTOCOLS: TracingProtocol[] = ['http/protobuf', 'http/json', 'grpc'];
const SAMPLERS: TracingSampler[] = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
];

/** `key=value,key2=value2`, values percent-encoded (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES). */
function keyValues(raw: string | undefined, name: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of (raw ?? '').split(',')) {
    if (!part.trim()) continue;
    const at = part.indexOf('=');
    if (at <= 0) throw new Error(`${name} must be key=value pairs separated by commas, got ${JSON.stringify(raw)}`);
    try {
      result[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      throw new Error(`${name} has a value that is not percent-encoded properly: ${JSON.stringify(part)}`);
    }
  }
  return result;
}

function choice<T extends string>(value: string, allowed: T[], name: string): T {
  if (!(allowed as string[]).includes(value))
    throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

function exportersOf(env: Record<string, string | undefined>): Array<'otlp' | 'console'> {
  const named = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (named.includes('none')) return [];
  if (!named.length) return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? ['otlp'] : [];
  return named.map((e) => choice(e, ['otlp', 'console'] as const as Array<'otlp' | 'console'>, 'OTEL_TRACES_EXPORTER'));
}

function endpointOf(env: Record<string, string | undefined>, protocol: TracingProtocol): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!base) return '';
  // The signal's path is added to the base endpoint over HTTP; gRPC takes the base as it is.
  return protocol === 'grpc' ? base : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** Throws an Error naming the variable on a bad value. */
export function tracingSettings(env: Record<string, string | undefined>): TracingSettings {
  const disabled = (env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true';
  const exporters = disabled ? [] : exportersOf(env);
  const protocol = choice(
    (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim(),
    PROTOCOLS,
    'OTEL_EXPORTER_OTLP_PROTOCOL',
  );
  const sampler = choice((env.OTEL_TRACES_SAMPLER || 'parentbased_always_on').trim(), SAMPLERS, 'OTEL_TRACES_SAMPLER');
  const ratio = env.OTEL_TRACES_SAMPLER_ARG ? Number(env.OTEL_TRACES_SAMPLER_ARG) : 1;
  if (!(ratio >= 0 && ratio <= 1))
    throw new Error(
      `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${JSON.stringify(env.OTEL_TRACES_SAMPLER_ARG)}`,
    );
  const endpoint = endpointOf(env, protocol);
  if (endpoint && !/^https?:\/\/[^/\s]/.test(endpoint))
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got ${JSON.stringify(endpoint)}`);
  return {
    enabled: exporters.length > 0,
    service_name: env.OTEL_SERVICE_NAME?.trim() || 'gameplatform',
    exporters,
    protocol,
    endpoint,
    headers: {
      ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
    },
    sampler,
    sampler_ratio: ratio,
    resource_attributes: keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES'),
  };
}
