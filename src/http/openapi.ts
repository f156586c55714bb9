// The OpenAPI 3.1 document, generated from the route schemas, at /v1/openapi.json; the portal renders it at /docs
// (src/modules/portal/api-docs.ts).
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { settingLeaves, type Config } from '../config.js';
import { ERROR_CATALOG } from './errors.js';
import { isDocumentedPath } from './route-docs.js';
import { finishDocument, type RouteFacts } from './openapi-pipeline.js';

export const API_VERSION = '1.0.0' as const;

function settingsTable(): string {
  const rows = settingLeaves().map((leaf) => {
    const def =
      leaf.schema.default === undefined || leaf.schema.default === '' ? 'unset' : `\`${String(leaf.schema.default)}\``;
    return `| \`${leaf.name}\` | \`${leaf.envName}\` | ${def} | ${leaf.schema.description ?? ''} |`;
  });
  return ['| setting | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOG).map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.description} |`);
  return ['| status | code | when |', '|---|---|---|', ...rows].join('\n');
}

const DESCRIPTION = `
The game platform's JSON API. Every path below starts with the base address \`{public_url}/v1\`, except the
operations endpoints (tag *operations*: \`/metrics\` and the health checks), which sit at the root of \`{public_url}\`.

Every response is JSON in one envelope: \`{ok: true, data, meta?}\` or \`{ok: false, error: {code, message, ...}}\`.
The one exception is this document itself, served bare so that tools can read it.
Field names are snake_case. A *timestamp* is \`YYYY-MM-DD HH:MM:SS\` in UTC; a *date* is \`YYYY-MM-DD\` in \`reset_timezone\`.

## Credentials
- **Player token**: \`Authorization: Bearer agp_…\` from login, register or \`POST /me/tokens\`.
- **Portal session**: the \`gp_session\` cookie set by login or register when called with \`X-Requested-With: ServiceSDK\`;
  every call with the cookie must carry that header (else 403 \`csrf_rejected\`). A Bearer header wins over the cookie.
- **Developer key**: \`Authorization: Bearer agk_…\`, bound to one game, with scopes.

Cross-origin requests are refused (403 \`cross_origin_forbidden\`); no response carries an \`Access-Control-*\` header.

## Rate limits
Requests are counted per credential (a developer key against \`rate_limits.developer_key\`, anything else against
\`rate_limits.default\`), per address when none is sent, and login, register and forgot-password by their own limits.
Counted responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds); a refusal is 429
\`rate_limited\` with \`Retry-After\`.
A JSON route takes only \`application/json\` bodies (415 otherwise).

## Game files
Games are served outside this API, each on an origin of its own (setting \`games_url\`, e.g.
\`https://{slug}.games.example.com\`), never on the portal's: \`entry_url\` (POST /play/start) and \`cover_url\` point
there. The play shell frames the game with \`allow-same-origin\` on that origin, so engine exports can fetch their
files, run module scripts and WebAssembly and keep local storage. A game whose \`game.json\` sets
\`"cross_origin_isolated": true\` is served (with its shell) with COOP/COEP, so that \`crossOriginIsolated\` is true in
its frame. Requests from a game's origin to this API are refused like any other cross-origin request.

## Errors
${errorTable()}

## Settings
Each setting can be given in \`gameplatform.config.json\` and overridden by its environment variable.

${settingsTable()}
`;

export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const facts = new Map<string, RouteFacts>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Game Platform API',
        version: API_VERSION,
        description: DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.public_url }],
      components: {
        securitySchemes: {
          playerToken: { type: 'http', scheme: 'bearer', description: 'player token agp_…' },
          developerKey: { type: 'http', scheme: 'bearer', description: 'developer key agk_…, bound to one game' },
          portalSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'gp_session',
            description: 'portal session; needs X-Requested-With: ServiceSDK',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'the setting metrics_token, for GET /metrics when it is set',
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      for (const method of [route.method].flat()) {
        facts.set(`${method} ${url.replace(/:(\w+)/g, '{$1}')}`, {
          setsCookie: route.config?.setsCookie ?? false,
          optionalBody: route.config?.optionalBody ?? false,
        });
      }
      return { schema: isDocumentedPath(url) ? schema : { ...schema, hide: true }, url };
    },
    transformObject: (document) =>
      finishDocument(
        ('openapiObject' in document ? document.openapiObject : document.swaggerObject) as Record<string, unknown>,
        facts,
      ),
  });

  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
