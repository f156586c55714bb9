// The last steps of the OpenAPI document, as rules over every operation (so a new route needs nothing by hand):
// operation ids, named component schemas, optional query parameters, typed error envelopes, response headers, tags.
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CATALOG, type ErrorCode } from './errors.js';

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  tags?: string[];
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Json }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, { description?: string; headers?: Json; content?: Record<string, { schema?: Json }> }>;
};

/** What each operation's tag means (a tag used by a route but missing here fails the lint test). */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  service: 'health of the service',
  auth: 'accounts: register, log in and out, verify the email, reset the password',
  account: "the player's own account: profile, tokens, avatar",
  players: 'public profiles',
  games: 'the catalogue',
  play: 'play sessions, the daily allowance and play time',
  'save states': 'save slots of a player in a game',
  scores: 'scores and leaderboards',
  'game backends': "routes for a game's own server, with a developer key (agk_…) bound to the game",
  identity: "identity tokens a game's backend verifies, and the keys that sign them",
  operations: 'probes and metrics for orchestrators, load balancers and monitoring, at the root of public_url',
  studios: "studios and their members, and their games' listings and status, for the studio's members",
  builds: "a studio's builds: uploads in parts, numbered builds, release, rollback and preview",
  preview: 'saves and scores made while previewing a build, kept apart from the live ones',
  admin: 'what the operators (staff and admin) do: studios, their approval, games handed to them, reviews',
};

/** The fields an error adds to `code` and `message`, per code (`error.<field>`). */
const ERROR_EXTRAS: Partial<
  Record<ErrorCode, { required: Record<string, TSchema>; optional?: Record<string, TSchema> }>
> = {
  validation_failed: {
    required: {
      fields: Type.Record(Type.String(), Type.String(), {
        description: 'each invalid field or query parameter (dotted path) with a message',
      }),
    },
  },
  version_conflict: {
    required: {
      current_version: Type.Integer({ minimum: 0, description: 'the version stored now; 0 when the slot is empty' }),
    },
  },
  rate_limited: {
    required: {
      retry_after: Type.Integer({
        minimum: 0,
        description: 'seconds to wait before trying again (also the Retry-After header)',
      }),
    },
  },
  guest_limit_reached: {
    required: {
      retry_after: Type.Integer({
        minimum: 0,
        description: 'seconds until the reset, when the address may start guests again (also the Retry-After header)',
      }),
    },
  },
  invalid_build: {
    required: {
      reason: Type.String({ description: 'why the build was refused', examples: ['path_traversal'] }),
    },
    optional: {
      file: Type.String({
        description: 'the zip entry refused, as its name reads in the zip',
        examples: ['../evil.js'],
      }),
    },
  },
  upload_incomplete: {
    required: {
      received: Type.Integer({ minimum: 0, description: 'bytes stored so far' }),
      size: Type.Integer({ minimum: 0, description: 'bytes announced when the upload started' }),
      parts: Type.Array(Type.Object({ part: Type.Integer({ minimum: 1 }), size: Type.Integer({ minimum: 0 }) }), {
        description: 'the parts stored, by number',
      }),
    },
  },
  score_out_of_range: {
    required: {
      min: Type.Union([Type.Integer(), Type.Null()], {
        description: 'the lowest score the game accepts (game.json leaderboard.min); null: no lower bound',
      }),
      max: Type.Union([Type.Integer(), Type.Null()], {
        description: 'the highest score the game accepts (game.json leaderboard.max); null: no upper bound',
      }),
    },
  },
  insufficient_scope: {
    required: {
      required_scope: Type.String({ description: 'the scope the developer key lacks', examples: ['scores:write'] }),
    },
  },
  // The Entitlement component comes from the play routes' schemas (hoisted by its title).
  limit_reached: { required: { entitlement: Type.Unsafe({ $ref: '#/components/schemas/Entitlement' }) } },
  session_ended: {
    required: {
      reason: Type.String({
        description: 'why the session closed: replaced, timeout, limit, quit, …',
        examples: ['timeout'],
      }),
    },
  },
  state_too_large: {
    required: {},
    optional: {
      size_bytes: Type.Integer({
        minimum: 0,
        description: 'size of the sent state as JSON text (absent when the body itself was over the limit)',
      }),
      max_bytes: Type.Integer({ minimum: 0, description: 'the most a state may hold, 262,144' }),
    },
  },
  internal_error: {
    required: {
      request_id: Type.String({ description: 'finds the fault in the service log (also the X-Request-Id header)' }),
    },
  },
};

const HEADERS: Record<string, Json> = {
  XRequestId: {
    description: "the id of this request in the service log (a trusted proxy's own X-Request-Id when it sent one)",
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'requests allowed in the current window for this credential (or address)',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: { description: 'requests left in the current window', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'seconds until the window starts again', schema: { type: 'integer', minimum: 0 } },
  RetryAfter: {
    description: 'seconds to wait before trying again: always on 429, on 503 when the database is unreachable',
    schema: { type: 'integer', minimum: 0 },
  },
  IdempotentReplayed: {
    description: '`true` when the response replays the first answer to this Idempotency-Key (nothing was stored again)',
    schema: { type: 'string', enum: ['true'] },
  },
  SetCookie: {
    description:
      "with `X-Requested-With: ServiceSDK`: sets (log in, register) or clears (log out, revoking the session's own token) the " +
      'portal session cookie `gp_session` (`__Host-gp_session` in production)',
    schema: { type: 'string' },
  },
};

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const pascal = (words: string[]) => words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');

/** `getV1GamesSlugLeaderboard`-style id for an operation whose route names none: method and the path's words. */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => s.replace(/[{}]/g, ''))
    .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + pascal(words);
}

const errorComponentName = (code: ErrorCode) => pascal(code.split('_')).replace(/(Error)?$/, 'Error');

function errorComponent(code: ErrorCode): Json {
  const extras = ERROR_EXTRAS[code];
  const optional = Object.fromEntries(Object.entries(extras?.optional ?? {}).map(([k, v]) => [k, Type.Optional(v)]));
  return JSON.parse(
    JSON.stringify(
      Type.Object(
        {
          code: Type.Literal(code, { description: 'stable error code' }),
          message: Type.String({ description: 'for people; may change' }),
          ...extras?.required,
          ...optional,
        },
        { description: `${ERROR_CATALOG[code].status}: ${ERROR_CATALOG[code].description}` },
      ),
    ),
  ) as Json;
}

/** The values a literal or a union of literals allows (fastify-swagger writes `const` as a one-value `enum`). */
function literalValues(schema: Json | undefined): unknown[] {
  if (!schema) return [];
  if ('const' in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  return ((schema.anyOf as Json[] | undefined) ?? []).flatMap(literalValues);
}

/** The codes of an error envelope built by errorEnvelope(). */
function envelopeCodes(schema: Json | undefined): ErrorCode[] | undefined {
  const props = schema?.properties as Record<string, Json> | undefined;
  if (literalValues(props?.ok).join() !== 'false') return undefined;
  const error = props?.error?.properties as Record<string, Json> | undefined;
  const codes = literalValues(error?.code).filter((c): c is ErrorCode => typeof c === 'string' && c in ERROR_CATALOG);
  return codes.length ? codes : undefined;
}

/** Moves every schema with a `title` under components.schemas and refers to it; the same title must mean the same schema. */
function hoistNamedSchemas(root: Json, components: Record<string, Json>): void {
  const withoutDescription = (s: Json) => JSON.stringify({ ...s, description: undefined });
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    const out: Json = {};
    for (const [key, value] of Object.entries(obj)) out[key] = visit(value);
    if (typeof out.title !== 'string' || out.$ref) return out;
    const name = out.title;
    const { title: _title, ...schema } = out;
    const known = components[name];
    if (known && withoutDescription(known) !== withoutDescription(schema)) {
      throw new Error(`OpenAPI: two different schemas are named ${name}`);
    }
    components[name] ??= schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const [key, value] of Object.entries(root)) root[key] = visit(value);
}

export interface RouteFacts {
  /** the route sets or clears the session cookie */
  setsCookie: boolean;
  /** the route takes its body schema's object, or no body at all */
  optionalBody?: boolean;
}

/** Applies the rules to the document fastify-swagger built; `facts` is keyed by `METHOD /path/{param}`. */
export function finishDocument(doc: Json, facts: Map<string, RouteFacts>): Json {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  const components = (doc.components ??= {}) as Json as Record<string, Record<string, Json>>;
  const schemas: Record<string, Json> = {};
  const usedErrors = new Set<ErrorCode>();
  const usedTags = new Set<string>();
  let usedHeaders = new Set<keyof typeof HEADERS>();

  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      op.operationId ??= derivedOperationId(method, path);
      for (const tag of op.tags ?? []) usedTags.add(tag);

      // A query parameter with a default may be left out: the service fills the default in.
      for (const param of op.parameters ?? []) {
        if (param.in === 'query' && param.schema?.default !== undefined) param.required = false;
      }
      const idempotent = (op.parameters ?? []).some(
        (p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
      );
      const routeFacts = facts.get(`${method.toUpperCase()} ${path}`);
      const setsCookie = routeFacts?.setsCookie ?? false;
      if (routeFacts?.optionalBody && op.requestBody) op.requestBody.required = false;

      for (const [status, response] of Object.entries(op.responses)) {
        const headers: Json = { 'X-Request-Id': headerRef('XRequestId') };
        usedHeaders.add('XRequestId');
        if (path.startsWith('/v1/')) {
          // rate-limit.ts tells every counted request its allowance
          for (const name of ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset'] as const) {
            headers[name.replace(/^RateLimit/, 'RateLimit-')] = headerRef(name);
            usedHeaders.add(name);
          }
        }
        if (status === '429' || status === '503') {
          headers['Retry-After'] = headerRef('RetryAfter');
          usedHeaders.add('RetryAfter');
        }
        if (status.startsWith('2') && idempotent) {
          headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed');
          usedHeaders.add('IdempotentReplayed');
        }
        if (status.startsWith('2') && setsCookie) {
          headers['Set-Cookie'] = headerRef('SetCookie');
          usedHeaders.add('SetCookie');
        }
        response.headers = { ...response.headers, ...headers };

        const media = response.content?.['application/json'];
        const codes = envelopeCodes(media?.schema);
        if (media && codes) {
          for (const code of codes) usedErrors.add(code);
          const refs = codes.map((code) => ({ $ref: `#/components/schemas/${errorComponentName(code)}` }));
          media.schema = {
            description: media.schema?.description,
            type: 'object',
            required: ['ok', 'error'],
            properties: { ok: { type: 'boolean', const: false }, error: refs.length === 1 ? refs[0] : { oneOf: refs } },
          };
        }
      }
    }
  }

  for (const code of Object.keys(ERROR_CATALOG) as ErrorCode[]) {
    if (usedErrors.has(code)) schemas[errorComponentName(code)] = errorComponent(code);
  }
  hoistNamedSchemas(paths as Json, schemas);
  hoistNamedSchemas(schemas, schemas);
  components.schemas = {
    ...components.schemas,
    ...Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
  };
  usedHeaders = new Set([...usedHeaders].sort());
  components.headers = Object.fromEntries([...usedHeaders].map((name) => [name, HEADERS[name]!]));
  doc.tags = [...usedTags]
    .sort()
    .map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
  return doc;
}
