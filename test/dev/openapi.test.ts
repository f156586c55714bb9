// The /dev routes in the OpenAPI document: developer key only, every field described, no private field anywhere.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced, undescribed, type Schema } from '../helpers/openapi.js';

/** Every property name under `schema`. */
function propertyNames(schema: Schema): string[] {
  return [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, child]) => [name, ...propertyNames(child)]),
    ...(schema.items ? propertyNames(schema.items) : []),
    ...(schema.anyOf ?? []).flatMap(propertyNames),
  ];
}

const ROUTES: Array<[string, string, string, string]> = [
  ['/v1/dev/players/{id}', 'get', '200', 'players:read'],
  ['/v1/dev/players/{id}/entitlement', 'get', '200', 'players:read'],
  ['/v1/dev/games/{slug}/players/{id}/states', 'get', '200', 'states:read'],
  ['/v1/dev/games/{slug}/players/{id}/states/{slot}', 'put', '201', 'states:write'],
  ['/v1/dev/games/{slug}/players/{id}/scores', 'post', '201', 'scores:write'],
  ['/v1/dev/games/{slug}/stats', 'get', '200', 'stats:read'],
];

eachDialect('dev: OpenAPI', (h) => {
  it('documents every /dev route for developer keys only, with its scope, errors and described fields', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const devPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/v1/dev/'));
    expect(devPaths.sort()).toEqual(expect.arrayContaining(ROUTES.map(([p]) => p).sort()));
    for (const [path, method, status, scope] of ROUTES) {
      const op = doc.paths[path][method];
      expect(op.security, path).toEqual([{ developerKey: [] }]);
      expect(op.description, path).toContain(`\`${scope}\``);
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining([status, '401', '403', '422']));
      expect(op.responses['403'].description, path).toMatch(
        /forbidden.*insufficient_scope|insufficient_scope.*forbidden/s,
      );
      expect(op.responses['403'].description, path).toMatch(/csrf_rejected/);
      const data = op.responses[status].content['application/json'].schema.properties.data;
      expect(undescribed(data, `${path} data`)).toEqual([]);
      for (const param of op.parameters ?? [])
        expect(param.description ?? param.schema?.description, `${path} ${param.name}`).toBeTruthy();
      const body = op.requestBody?.content['application/json'].schema;
      if (body) {
        expect(undescribed(body, `${path} body`)).toEqual([]);
        expect(Object.keys(body.properties)).not.toContain('player_id');
      }
    }
  });

  it('has no field for an email address or an account setting in any /dev response', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const names = new Set<string>();
    for (const [path, methods] of Object.entries<
      Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
    >(doc.paths)) {
      if (!path.startsWith('/v1/dev/')) continue;
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status.startsWith('2'))
            for (const name of propertyNames(response.content!['application/json']!.schema)) names.add(name);
        }
      }
    }
    expect(names.size).toBeGreaterThan(20);
    for (const secret of [
      'email',
      'email_verified',
      'newsletter',
      'role',
      'membership',
      'plan',
      'renews_at',
      'ends_at',
      'password_hash',
    ]) {
      expect(names.has(secret), secret).toBe(false);
    }
  });
});
