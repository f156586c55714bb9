// The OpenAPI document as the service serves it passes Redocly's recommended rules with no error and no warning,
// and carries what a generated client needs: operation ids, named schemas, optional defaults, typed errors, headers.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect, it } from 'vitest';
import { createGame, createKey, createPlayerWithToken } from '../helpers/factories.js';
import { eachDialect } from '../helpers/harness.js';

eachDialect(
  'OpenAPI lint',
  (h) => {
    const document = async () => (await h.http.get('/v1/openapi.json')).body;

    it('passes redocly lint (recommended, and every tag declared) with no errors and no warnings', async () => {
      const doc = await document();
      const config = await createConfig({ extends: ['recommended'], rules: { 'operation-tag-defined': 'error' } });
      const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    });

    it('names each operation once, in camelCase, and declares every tag with a description', async () => {
      const doc = await document();
      const ops = Object.values<Record<string, { operationId: string; tags: string[] }>>(doc.paths).flatMap((m) =>
        Object.values(m),
      );
      const ids = ops.map((op) => op.operationId);
      expect(
        ids.every((id) => /^[a-z][A-Za-z0-9]*$/.test(id)),
        ids.join(),
      ).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        expect.arrayContaining(['getLeaderboard', 'submitScore', 'devListStates', 'devSubmitScore', 'devGetStats']),
      );
      const declared = doc.tags.map(
        (t: { name: string; description: string }) => (expect(t.description, t.name).toBeTruthy(), t.name),
      );
      for (const op of ops) for (const tag of op.tags) expect(declared).toContain(tag);
    });

    it('names the shared shapes and refers to them', async () => {
      const doc = await document();
      const text = JSON.stringify(doc.paths);
      for (const name of ['Entitlement', 'OwnPlayer', 'Player', 'Game', 'Membership', 'SubmitScoreResult']) {
        expect(doc.components.schemas[name], name).toBeDefined();
        expect(text).toContain(`"#/components/schemas/${name}"`);
      }
      // the Entitlement is written out once, not inlined at each use
      expect(JSON.stringify(doc).split('"allowance_seconds":{').length - 1).toBe(1);
    });

    it('leaves query parameters with a default optional', async () => {
      const doc = await document();
      const required = (path: string, name: string) =>
        doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name).required ?? false;
      expect(required('/v1/me/playtime', 'days')).toBe(false);
      for (const name of ['board', 'period', 'limit', 'offset'])
        expect(required('/v1/games/{slug}/leaderboard', name), name).toBe(false);
      for (const name of ['board', 'period'])
        expect(required('/v1/games/{slug}/leaderboard/me', name), name).toBe(false);
      expect(required('/v1/dev/games/{slug}/players/{id}/states', 'include_state')).toBe(false);
      for (const methods of Object.values<
        Record<string, { parameters?: Array<{ in: string; required?: boolean; schema: { default?: unknown } }> }>
      >(doc.paths)) {
        for (const op of Object.values(methods)) {
          for (const p of op.parameters ?? [])
            if (p.in === 'query' && p.schema.default !== undefined) expect(p.required ?? false).toBe(false);
        }
      }
    });

    it("types each error's extra fields by code", async () => {
      const doc = await document();
      const schemas = doc.components.schemas;
      const extras: Record<string, [string, string]> = {
        VersionConflictError: ['current_version', 'integer'],
        ValidationFailedError: ['fields', 'object'],
        RateLimitedError: ['retry_after', 'integer'],
        InsufficientScopeError: ['required_scope', 'string'],
        InternalError: ['request_id', 'string'],
      };
      for (const [name, [field, type]] of Object.entries(extras)) {
        expect(schemas[name].properties[field].type, name).toBe(type);
        expect(schemas[name].required, name).toContain(field);
      }
      expect(schemas.LimitReachedError.properties.entitlement).toEqual({ $ref: '#/components/schemas/Entitlement' });
      const conflict =
        doc.paths['/v1/games/{slug}/states/{slot}'].put.responses['409'].content['application/json'].schema;
      expect(conflict.properties.error).toEqual({ $ref: '#/components/schemas/VersionConflictError' });
      const forbidden = doc.paths['/v1/dev/games/{slug}/stats'].get.responses['403'].content['application/json'].schema;
      expect(forbidden.properties.error.oneOf).toContainEqual({ $ref: '#/components/schemas/InsufficientScopeError' });
    });

    it("answers errors that match their code's schema, extra fields included", async () => {
      const doc = await document();
      const ajv = new Ajv2020({ strict: false });
      ajv.addSchema({ ...doc, $id: 'openapi.json' });
      const check = (body: { ok: boolean; error: unknown }, component: string) => {
        expect(body.ok).toBe(false);
        const validate = ajv.getSchema(`openapi.json#/components/schemas/${component}`)!;
        expect(validate(body.error), `${component}: ${JSON.stringify(validate.errors)} ${JSON.stringify(body)}`).toBe(
          true,
        );
      };
      const game = await createGame(h.ctx, { save_slots: 2 });
      const { token } = await createPlayerWithToken(h.ctx);
      const slot = `/v1/games/${game.slug}/states/0`;
      expect((await h.http.put(slot, { token, body: { state: 1 } })).status).toBe(201);
      const conflict = await h.http.put(slot, { token, body: { state: 2, expected_version: 0 } });
      expect(conflict.status).toBe(409);
      check(conflict.body, 'VersionConflictError');
      const invalid = await h.http.put(slot, { token, body: { state: 2, expected_version: -1 } });
      expect(invalid.status).toBe(422);
      check(invalid.body, 'ValidationFailedError');
      const { key } = await createKey(h.ctx, game.id, ['players:read']);
      const scope = await h.http.get(`/v1/dev/games/${game.slug}/stats`, { token: key });
      expect(scope.status).toBe(403);
      check(scope.body, 'InsufficientScopeError');
      const missing = await h.http.get(`/v1/games/${game.slug}/states/1`, { token });
      expect(missing.status).toBe(404);
      check(missing.body, 'NotFoundError');
    });

    it('describes the response headers, and 429 and 503 on every operation of the API', async () => {
      const doc = await document();
      type Response = { headers: Record<string, { $ref: string }> };
      // the API under /v1 (the probes and /metrics are never rate-limited: test/http/health.test.ts, metrics.test.ts)
      const api = Object.entries<Record<string, { responses: Record<string, Response> }>>(doc.paths).filter(([path]) =>
        path.startsWith('/v1/'),
      );
      for (const [, methods] of api) {
        for (const op of Object.values(methods)) {
          expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['429', '503']));
          for (const response of Object.values(op.responses)) expect(response.headers['X-Request-Id']).toBeDefined();
          expect(op.responses['429']!.headers['Retry-After']).toEqual({ $ref: '#/components/headers/RetryAfter' });
        }
      }
      expect(doc.paths['/v1/games/{slug}/scores'].post.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
      expect(
        doc.paths['/v1/dev/games/{slug}/players/{id}/scores'].post.responses['201'].headers['Idempotent-Replayed'],
      ).toBeDefined();
      for (const path of ['/v1/auth/login', '/v1/auth/register', '/v1/auth/logout']) {
        const ok = Object.entries<Response>(doc.paths[path].post.responses).find(([s]) => s.startsWith('2'))![1];
        expect(ok.headers['Set-Cookie'], path).toBeDefined();
      }
      expect(doc.paths['/v1/me'].get.responses['200'].headers['Set-Cookie']).toBeUndefined();
    });
  },
  // a real public address: redocly rightly warns about a server at localhost (the tests' default)
  { settings: { public_url: 'https://play.example.net' } },
);
