// Per-route settings read by the hooks: which credential the route takes, the scope a key needs, the errors it can answer.
import type { AuthMode, Scope } from './auth.js';
import type { ErrorCode } from './errors.js';
import type { RateLimitRule } from './rate-limit.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** scope a developer key needs on this route */
    scope?: Scope;
    /** route-specific error codes, documented in OpenAPI (the common ones are added for every route) */
    errors?: ErrorCode[];
    /** code answered instead of payload_too_large when the body is over the limit */
    tooLargeCode?: ErrorCode;
    /** the route's own rate limit; without it the route counts against the default limit */
    rateLimitRule?: RateLimitRule;
    /** /healthz and /readyz: never rate-limited, answered over plain HTTP in production; liveness also while closing */
    healthProbe?: 'liveness' | 'readiness';
    /** the route may set or clear the session cookie (documented as a Set-Cookie response header) */
    setsCookie?: boolean;
    /** the body may be left out (the route reads it as {}); documented as an optional request body */
    optionalBody?: boolean;
  }
}
