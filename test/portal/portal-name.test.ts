// The portal's own name out of the box (gameplatform.localhost, the games' site): its pages asked on localhost or
// 127.0.0.1 are sent there, so a player who types http://localhost:8080 plays where games keep their storage. The API,
// the SDK script and the probes answer on any name.
import { expect, it } from 'vitest';
import { eachDialect } from '../helpers/harness.js';

const PORTAL = 'http://gameplatform.localhost:8080';

eachDialect(
  'portal: its name',
  (h) => {
    it.each([
      ['localhost:8080', '/'],
      ['127.0.0.1:8080', '/games/reflex?ref=home'],
      ['[::1]:8080', '/play/reflex'],
      ['localhost:8080', '/assets/portal.css'],
    ])('sends a page asked on %s (%s) to the same path on the portal name', async (host, url) => {
      const res = await h.http.get(url, { headers: { host } });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${PORTAL}${url}`);
    });

    it('serves the pages on the portal name itself', async () => {
      const res = await h.http.get('/login', { headers: { host: 'gameplatform.localhost:8080' } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    });

    it('answers the API, the SDK script and the probes on localhost as they are', async () => {
      for (const url of ['/v1/status', '/sdk/v1.js', '/healthz']) {
        const res = await h.http.get(url, { headers: { host: 'localhost:8080' } });
        expect(res.status, url).toBe(200);
      }
    });
  },
  { settings: { public_url: PORTAL } },
);

eachDialect(
  'portal: on a name of its own choosing',
  (h) => {
    it('redirects nothing when public_url is not a *.localhost name', async () => {
      const res = await h.http.get('/login', { headers: { host: '127.0.0.1:8080' } });
      expect(res.status).toBe(200);
    });
  },
  { settings: { public_url: 'http://localhost:8080' } },
);
