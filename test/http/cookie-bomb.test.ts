// A cookie bomb reaching the service (docs/operations.md, "Cookie bombs"): 180 cookies of 4 KB that a game set on the
// portal's parent domain are taken (no 431), the player's session still counts, and the answer expires them on every
// parent domain a game can write, never the host-only session. Over a real socket: app.inject knows no header limit.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enabledDialects } from '../helpers/dialects.js';
import { createPlayerWithToken, publishFixture } from '../helpers/factories.js';
import { liveApp, type LiveApp } from '../helpers/live.js';

const PORTAL = 'gameplatform.localhost:8080';
const BOMB = Array.from({ length: 180 }, (_, i) => `bomb${i}=${'x'.repeat(4090)}`).join('; ');

interface Answer {
  status: number;
  setCookie: string[];
  body: string;
}

function get(port: number, host: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return send(port, 'GET', path, { host, headers });
}

function send(
  port: number,
  method: string,
  path: string,
  options: { host?: string; headers?: Record<string, string>; body?: unknown },
): Promise<Answer> {
  const headers: Record<string, string> = { Host: options.host ?? PORTAL, ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, agent: false, maxHeaderSize: 1 << 20, headers },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [], body }));
      },
    );
    req.on('error', reject);
    req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

for (const dialect of enabledDialects()) {
  describe(`http: cookie bombs [${dialect}]`, () => {
    let live: LiveApp;
    let token: string;
    let slug: string;
    beforeAll(async () => {
      live = await liveApp(dialect, { public_url: `http://${PORTAL}` });
      token = (await createPlayerWithToken(live.app.ctx)).token;
      slug = (await publishFixture(live.app.ctx)).slug;
    });
    afterAll(async () => {
      await live?.close();
    });

    it('answers the API with 740 KB of cookies, and expires each of them on the parent domain only', async () => {
      expect(BOMB.length).toBeGreaterThan(730_000);
      const answer = await get(live.port, PORTAL, '/v1/me', { Authorization: `Bearer ${token}`, Cookie: BOMB });
      expect(answer.status).toBe(200);
      const expired = answer.setCookie.filter((line) => line.includes('Path=/;'));
      expect(expired).toHaveLength(180);
      expect(expired[0]).toBe('bomb0=; Domain=gameplatform.localhost; Path=/; Max-Age=0');
      // The narrower paths a cookie of /v1/me could have, as far as the answer's budget goes.
      expect(answer.setCookie.some((line) => line.includes('Path=/v1;'))).toBe(true);
      expect(answer.setCookie.every((line) => line.includes('Domain=gameplatform.localhost'))).toBe(true);
    });

    it("keeps a bombed browser's portal session working, and never expires it", async () => {
      const registered = await send(live.port, 'POST', '/v1/auth/register', {
        body: { email: 'bombed@example.com', password: 'correct horse battery', display_name: 'Bombed' },
        headers: { 'X-Requested-With': 'ServiceSDK', Cookie: BOMB },
      });
      expect(registered.status).toBe(201);
      const session = registered.setCookie.find((line) => line.startsWith('gp_session='))!;
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/Priority=High/);
      expect(session).not.toMatch(/Domain=/);
      const me = await get(live.port, PORTAL, '/v1/me', {
        'X-Requested-With': 'ServiceSDK',
        Cookie: `${session.split(';')[0]}; ${BOMB}`,
      });
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body).data.player.display_name).toBe('Bombed');
      expect(me.setCookie.some((line) => line.startsWith('gp_session=') && !line.includes('Domain='))).toBe(false);
    });

    it('serves a portal page to a bombed browser, with the expiries', async () => {
      const answer = await get(live.port, PORTAL, '/login', { Cookie: `gp_session=abc; ${BOMB}` });
      expect(answer.status).toBe(200);
      expect(answer.setCookie).toContain('bomb179=; Domain=gameplatform.localhost; Path=/; Max-Age=0');
      // The session's name on the parent domain is a game's doing too; the portal's own cookie is host-only.
      expect(answer.setCookie).toContain('gp_session=; Domain=gameplatform.localhost; Path=/; Max-Age=0');
      expect(answer.setCookie.some((line) => !line.includes('Domain='))).toBe(false);
    });

    it("expires them on the games' domain too from a game's origin, which otherwise never sets a cookie", async () => {
      const host = `${slug}.games.gameplatform.localhost:8080`;
      const answer = await get(live.port, host, '/cover.png', { Cookie: BOMB });
      expect(answer.status).toBe(200);
      expect(answer.setCookie).toContain('bomb0=; Domain=games.gameplatform.localhost; Path=/; Max-Age=0');
      expect(answer.setCookie).toContain('bomb0=; Domain=gameplatform.localhost; Path=/; Max-Age=0');
      const plain = await get(live.port, host, '/cover.png', { Cookie: 'own=1' });
      expect(plain.setCookie).toEqual([]);
    });

    it('leaves an ordinary Cookie header alone', async () => {
      const answer = await get(live.port, PORTAL, '/login', { Cookie: 'analytics=1; gp_session=abc' });
      expect(answer.status).toBe(200);
      expect(answer.setCookie).toEqual([]);
    });
  });
}
