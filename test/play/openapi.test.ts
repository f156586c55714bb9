// The play routes in the OpenAPI document: every field of their requests and responses is described.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced, undescribed } from '../helpers/openapi.js';

eachDialect('play: OpenAPI', (h) => {
  it('describes every field of the play, entitlement and playtime routes, and lists their errors', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const routes: Array<[string, string, string[]]> = [
      ['/v1/play/start', 'post', ['402', '403', '404']],
      ['/v1/play/heartbeat', 'post', ['404', '410']],
      ['/v1/play/end', 'post', ['404']],
      ['/v1/me/entitlement', 'get', ['401']],
      ['/v1/me/playtime', 'get', ['422']],
    ];
    for (const [path, method, statuses] of routes) {
      const op = doc.paths[path]?.[method];
      expect(op, path).toBeDefined();
      expect(op.description, path).toBeTruthy();
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', ...statuses]));
      const data = op.responses['200'].content['application/json'].schema.properties.data;
      expect(undescribed(data, `${path} data`)).toEqual([]);
      const body = op.requestBody?.content['application/json'].schema;
      if (body) expect(undescribed(body, `${path} body`)).toEqual([]);
      for (const param of op.parameters ?? [])
        expect(param.description ?? param.schema?.description, `${path} ${param.name}`).toBeTruthy();
    }
    const start = doc.paths['/v1/play/start'].post.responses;
    expect(start['402'].description).toMatch(/limit_reached/);
    expect(start['402'].description).toMatch(/premium_required/);
    expect(start['403'].description).toMatch(/game_unavailable/);
    expect(doc.paths['/v1/play/heartbeat'].post.responses['410'].description).toMatch(/session_ended/);
  });
});
