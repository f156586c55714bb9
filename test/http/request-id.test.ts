// X-Request-Id: a new UUID for every request, or the id a trusted proxy (trust_proxy) sent, echoed in the response.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

eachDialect(
  'http: request id behind a trusted proxy',
  (h) => {
    const get = (ip: string, id?: string) =>
      h.app.inject({
        method: 'GET',
        url: '/v1/status',
        remoteAddress: ip,
        headers: id === undefined ? {} : { 'x-request-id': id },
      });

    it('keeps the X-Request-Id of a trusted proxy as the request id', async () => {
      const res = await get('10.0.0.7', 'lb-7f3a9c:0001');
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-request-id']).toBe('lb-7f3a9c:0001');
    });

    it('ignores it from any other peer', async () => {
      const res = await get('203.0.113.9', 'spoofed-id');
      expect(res.headers['x-request-id']).toMatch(UUID);
    });

    it('ignores an id that is too long or holds spaces or control characters', async () => {
      for (const id of ['x'.repeat(129), 'two words', ''])
        expect((await get('10.0.0.7', id)).headers['x-request-id']).toMatch(UUID);
    });

    it('makes a new id when the proxy sends none', async () => {
      const a = await get('10.0.0.7');
      const b = await get('10.0.0.7');
      expect(a.headers['x-request-id']).toMatch(UUID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });
  },
  { settings: { trust_proxy: '10.0.0.0/8' } },
);

eachDialect('http: request id without a trusted proxy', (h) => {
  it('never takes an incoming X-Request-Id', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/v1/status',
      remoteAddress: '127.0.0.1',
      headers: { 'x-request-id': 'client-chosen' },
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });
});
