// Every status the service answers an operation with is listed for it in the OpenAPI document: hostile probes of every
// operation (a body that is not JSON, broken or too deep JSON, an encoded body, an undecodable or overlong path
// parameter) may only get statuses the document names for that operation.
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { gameWithPlayer } from '../dev/fixtures.js';
import { eachDialect } from '../helpers/harness.js';
import type { CallOptions } from '../helpers/request.js';

type Probe = { name: string; path?: (template: string) => string; options?: CallOptions; withBody?: boolean };

const PROBES: Probe[] = [
  { name: 'text body', withBody: true, options: { body: 'hello', contentType: 'text/plain' } },
  { name: 'form body', withBody: true, options: { body: 'a=1', contentType: 'application/x-www-form-urlencoded' } },
  { name: 'broken JSON', withBody: true, options: { body: '{"a":', contentType: 'application/json' } },
  {
    name: 'JSON 1,000 deep',
    withBody: true,
    options: { body: `${'['.repeat(1000)}${']'.repeat(1000)}`, contentType: 'application/json' },
  },
  {
    name: 'gzip body',
    withBody: true,
    options: { body: gzipSync('{}'), contentType: 'application/json', headers: { 'content-encoding': 'gzip' } },
  },
  {
    name: 'body over 2 MiB',
    withBody: true,
    options: { body: `{"a":"${'x'.repeat(2 * 1024 * 1024 + 10)}"}`, contentType: 'application/json' },
  },
  { name: 'undecodable parameter', path: (t) => t.replace(/\{[^}]+\}/, '%E0%A4%A') },
  { name: 'parameter of 201 characters', path: (t) => t.replace(/\{[^}]+\}/, 'a'.repeat(201)) },
  { name: 'foreign Origin', options: { headers: { origin: 'https://evil.example' } } },
];

eachDialect('http: every status answered is documented', (h) => {
  it('answers hostile probes of every operation only with statuses its OpenAPI entry lists', async () => {
    const w = await gameWithPlayer(h);
    const doc = (await h.http.get('/v1/openapi.json')).body;
    const values: Record<string, string> = {
      slug: w.game.slug,
      id: String(w.player.id),
      slot: '0',
      username: w.player.username,
    };
    const undocumented: string[] = [];
    let probes = 0;
    for (const [template, operations] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const token =
          operation.security?.some((s: Record<string, unknown>) => 'developerKey' in s) &&
          !operation.security.some((s: Record<string, unknown>) => 'playerToken' in s)
            ? w.key
            : w.token;
        for (const probe of PROBES) {
          const hasBody = method !== 'get' && method !== 'head';
          if (probe.withBody && !hasBody) continue;
          if (probe.path && !template.includes('{')) continue;
          const path = (probe.path ? probe.path(template) : template).replace(
            /\{([^}]+)\}/g,
            (_m, name: string) => values[name] ?? 'x',
          );
          const call = h.http[method as 'get'];
          const res = await call(path, { token, ...probe.options, headers: { ...probe.options?.headers } });
          probes++;
          expect(res.status, `${method} ${template} (${probe.name})`).toBeLessThan(500);
          if (res.status >= 400)
            expect(res.body?.ok, `${method} ${template} (${probe.name}) answers in the envelope`).toBe(false);
          if (!Object.hasOwn(operation.responses ?? {}, String(res.status)))
            undocumented.push(
              `${method.toUpperCase()} ${template} (${probe.name}): ${res.status} ${res.body?.error?.code}`,
            );
        }
      }
    }
    expect(probes).toBeGreaterThan(150);
    expect(undocumented).toEqual([]);
  });

  it('answers a slug of 201 characters with 404 not_found, and an undecodable one with 400 bad_request', async () => {
    const long = await h.http.get(`/v1/games/${'a'.repeat(201)}`);
    expect(long.status).toBe(404);
    expect(long.body.error.code).toBe('not_found');
    const broken = await h.http.get('/v1/games/%E0%A4%A');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('bad_request');
  });
});
