// Adds to every /v1 route the error responses it can give and its security requirement, so the OpenAPI document is complete.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { AuthMode } from './auth.js';
import { errorEnvelope } from './envelope.js';
import { ERROR_CATALOG, type ErrorCode } from './errors.js';

const AUTH_ERRORS: Record<AuthMode, ErrorCode[]> = {
  none: [],
  optional: ['unauthenticated'],
  lenient: [],
  player: ['unauthenticated', 'forbidden', 'csrf_rejected'],
  // a portal cookie is read (and refused with 403 forbidden, or csrf_rejected without the header) on key routes too
  key: ['unauthenticated', 'forbidden', 'csrf_rejected'],
  player_or_key: ['unauthenticated', 'forbidden', 'csrf_rejected'],
};

const SECURITY: Record<AuthMode, Array<Record<string, string[]>>> = {
  none: [],
  optional: [{}, { playerToken: [] }, { portalSession: [] }],
  lenient: [{}, { playerToken: [] }, { portalSession: [] }],
  player: [{ playerToken: [] }, { portalSession: [] }],
  key: [{ developerKey: [] }],
  player_or_key: [{ playerToken: [] }, { portalSession: [] }, { developerKey: [] }],
};

// Any route can meet these: a foreign Origin, plain HTTP in production, the rate limit, a fault, shutdown or a database
// away; and the answers given before a route runs: a URL that cannot be decoded, headers too large, an Expect not met,
// a request too slow to arrive.
const ALWAYS: ErrorCode[] = [
  'bad_request',
  'cross_origin_forbidden',
  'https_required',
  'request_timeout',
  'expectation_failed',
  'headers_too_large',
  'rate_limited',
  'internal_error',
  'unavailable',
];

/**
 * Any request with a body (every method but GET and HEAD) has it parsed before the route runs, whether the route
 * takes one or not: a type other than JSON (415), a Content-Encoding (415), broken JSON (400), too large (413),
 * nested too deep (422).
 */
const BODY_ERRORS: ErrorCode[] = ['invalid_json', 'unsupported_media_type', 'validation_failed'];

function takesBody(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.some((m) => m !== 'GET' && m !== 'HEAD');
}

export function routeErrors(route: RouteOptions): ErrorCode[] {
  const config = route.config ?? {};
  const schema = route.schema ?? {};
  // The probes are never refused for plain HTTP or a rate limit (a browser's foreign Origin still is): their own answers.
  if (config.healthProbe) return ['cross_origin_forbidden', ...(config.errors ?? [])];
  const codes = new Set<ErrorCode>(ALWAYS);
  if (config.rateLimitRule === 'none') codes.delete('rate_limited');
  for (const code of AUTH_ERRORS[config.auth ?? 'none']) codes.add(code);
  if (config.scope) codes.add('insufficient_scope');
  if (schema.body || takesBody(route)) {
    for (const code of BODY_ERRORS) codes.add(code);
    codes.add(config.tooLargeCode ?? 'payload_too_large');
  }
  if (schema.body || schema.querystring || schema.params) codes.add('validation_failed');
  for (const code of config.errors ?? []) codes.add(code);
  return [...codes];
}

/** The routes outside /v1 that the OpenAPI document lists too: what operators and orchestrators call. */
export const OPERATIONS_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Whether the OpenAPI document lists this path: the API under /v1, and the operations endpoints. */
export function isDocumentedPath(url: string): boolean {
  return url.startsWith('/v1/') || OPERATIONS_PATHS.has(url);
}

export function registerRouteDocs(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isDocumentedPath(route.url) || route.schema?.hide) return;
    const schema = (route.schema ??= {});
    const response = (schema.response ??= {}) as Record<number, TSchema>;
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of routeErrors(route)) {
      const status = ERROR_CATALOG[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of byStatus) response[status] ??= errorEnvelope(status, codes);
    const security = SECURITY[route.config?.auth ?? 'none'];
    (schema as Record<string, unknown>).security ??= security;
  });
}
