// The operator console's routes in the OpenAPI document: each with a summary, 401 and 403, and every field described.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced } from '../helpers/openapi.js';

const ROUTES: Array<[string, string, string[]]> = [
  ['get', '/v1/admin/players', ['200', '401', '403', '422']],
  ['get', '/v1/admin/players/{id}', ['200', '401', '403', '404']],
  ['post', '/v1/admin/players/{id}/suspend', ['200', '401', '403', '404', '422']],
  ['post', '/v1/admin/players/{id}/unsuspend', ['200', '401', '403', '404', '422']],
  ['put', '/v1/admin/players/{id}/role', ['200', '401', '403', '404', '422']],
  ['put', '/v1/admin/players/{id}/membership', ['200', '401', '403', '404', '422']],
  ['get', '/v1/admin/games', ['200', '401', '403']],
  ['put', '/v1/admin/games/{slug}/status', ['200', '401', '403', '404', '422']],
  ['get', '/v1/admin/keys', ['200', '401', '403', '404']],
  ['post', '/v1/admin/keys', ['201', '401', '403', '404', '422']],
  ['delete', '/v1/admin/keys/{id}', ['200', '401', '403', '404']],
  ['get', '/v1/admin/mail', ['200', '401', '403']],
  ['post', '/v1/admin/mail/{id}/retry', ['200', '401', '403', '404', '422']],
  ['get', '/v1/admin/audit', ['200', '401', '403']],
];

/** Paths of the properties without a description, in a dereferenced schema. */
function undescribed(schema: any, at = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const out: string[] = [];
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    const described = prop.description || prop.anyOf?.some((s: any) => s.description) || prop.title;
    if (!described) out.push(`${at}${name}`);
    if (prop.title || name === 'membership') continue; // shared components (Membership), documented where defined
    out.push(...undescribed(prop, `${at}${name}.`));
    if (prop.items) out.push(...undescribed(prop.items, `${at}${name}[].`));
    for (const option of prop.anyOf ?? []) out.push(...undescribed(option, `${at}${name}.`));
  }
  return out;
}

eachDialect('admin: OpenAPI', (h) => {
  it.each(ROUTES)('documents %s %s with its responses and described fields', async (method, path, statuses) => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op.summary).toBeTruthy();
    expect(op.tags).toEqual(['admin']);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(statuses));
    const ok = op.responses[statuses[0]!].content['application/json'].schema.properties.data;
    expect(undescribed(ok)).toEqual([]);
    for (const p of op.parameters ?? []) expect(p.description ?? p.schema?.description, p.name).toBeTruthy();
  });
});
