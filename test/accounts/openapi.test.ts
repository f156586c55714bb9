// The accounts routes in the OpenAPI document: each with its fields, its own error codes and its credential.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';
import { dereferenced } from '../helpers/openapi.js';

const ROUTES: Array<[string, string, string[]]> = [
  ['post', '/v1/auth/register', ['201', '409', '415', '422', '429']],
  ['post', '/v1/auth/login', ['200', '401', '403', '422', '429']],
  ['post', '/v1/auth/logout', ['200', '401', '403']],
  ['post', '/v1/auth/forgot-password', ['200', '422', '429']],
  ['post', '/v1/auth/verify-email', ['200', '422']],
  ['post', '/v1/auth/reset-password', ['200', '422']],
  ['get', '/v1/me', ['200', '401', '403']],
  ['patch', '/v1/me', ['200', '401', '403', '409', '422']],
  ['post', '/v1/me/avatar', ['200', '401', '403', '413', '415', '422']],
  ['delete', '/v1/me/avatar', ['200', '401', '403']],
  ['get', '/v1/me/tokens', ['200', '401', '403']],
  ['post', '/v1/me/tokens', ['201', '401', '403', '409', '422']],
  ['delete', '/v1/me/tokens/{id}', ['200', '401', '403', '404', '422']],
  ['get', '/v1/players/{username}', ['200', '404']],
];

eachDialect('accounts: OpenAPI', (h) => {
  it.each(ROUTES)('documents %s %s with its responses', async (method, path, statuses) => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const op = doc.paths[path]?.[method];
    expect(op, `${method} ${path}`).toBeDefined();
    expect(op.summary).toBeTruthy();
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(statuses));
  });

  it('documents the fields, limits and codes', async () => {
    const doc = dereferenced((await h.http.get('/v1/openapi.json')).body);
    const register = doc.paths['/v1/auth/register'].post;
    const body = register.requestBody.content['application/json'].schema;
    expect(body.required.sort()).toEqual(['display_name', 'email', 'password']);
    expect(body.properties.password).toMatchObject({ minLength: 8, maxLength: 256 });
    expect(body.properties.username).toMatchObject({ minLength: 3, maxLength: 32, pattern: '^[A-Za-z0-9_]+$' });
    expect(JSON.stringify(register.responses['409'])).toContain('email_taken');
    const player = register.responses['201'].content['application/json'].schema.properties.data.properties.player;
    expect(Object.keys(player.properties).sort()).toEqual(
      [
        'avatar_url',
        'bio',
        'country',
        'display_name',
        'email',
        'email_verified',
        'guest',
        'id',
        'member_since',
        'newsletter',
        'role',
        'username',
      ].sort(),
    );
    const patch = doc.paths['/v1/me'].patch.requestBody.content['application/json'].schema;
    expect(Object.keys(patch.properties).sort()).toEqual(['bio', 'country', 'display_name', 'newsletter', 'username']);
    const avatar = doc.paths['/v1/me/avatar'].post.requestBody.content;
    expect(Object.keys(avatar)).toEqual(['multipart/form-data']);
    expect(avatar['multipart/form-data'].schema.properties.avatar).toMatchObject({ type: 'string', format: 'binary' });
    expect(doc.paths['/v1/me'].get.security).toEqual([{ playerToken: [] }, { portalSession: [] }]);
    expect(JSON.stringify(doc.paths['/v1/me/tokens'].post.responses['409'])).toContain('token_limit_reached');
  });
});
