// Redis going away under two processes sharing rate limits: requests are served uncounted (as docs/api.md says), the
// log says so once, and when Redis returns the limits are shared again without a restart, with one line saying so.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';
import { enabledDialects } from '../helpers/dialects.js';
import { capturingLogger } from '../helpers/log.js';
import { testRedis, type TestRedis } from '../helpers/redis-server.js';

const GONE = 'redis unreachable';
const BACK = 'redis is back';

let ipCounter = 0;
const newIp = () => `10.77.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;
const status = (h: Harness, ip: string) =>
  h.app.inject({ method: 'GET', url: '/v1/status', remoteAddress: ip }).then((r) => r.statusCode);

for (const dialect of enabledDialects()) {
  describe(`rate limits when Redis goes away and comes back [${dialect}]`, () => {
    let redis: TestRedis;
    const logs = [capturingLogger(), capturingLogger()];
    const apps: Harness[] = [];
    let one: Harness;
    let two: Harness;

    beforeAll(async () => {
      redis = await testRedis();
      await redis.start();
      const settings = {
        redis_url: redis.url,
        redis_prefix: `gp-outage-${randomBytes(4).toString('hex')}:`,
        'rate_limits.default.max': 3,
      };
      for (const log of logs) apps.push(await createHarness(dialect, { settings, logger: log.logger }));
      [one, two] = apps as [Harness, Harness];
    });
    afterAll(async () => {
      for (const app of apps) await (app as Harness & { close(): Promise<void> }).close();
      await redis?.stop();
    });

    /** Three requests from one address over both processes, then the fourth is refused by each: the count is shared. */
    async function expectShared() {
      const ip = newIp();
      expect([await status(one, ip), await status(two, ip), await status(one, ip)]).toEqual([200, 200, 200]);
      expect([await status(two, ip), await status(one, ip)]).toEqual([429, 429]);
    }

    it('shares the limits while Redis is up, and logs nothing about it', async () => {
      await expectShared();
      for (const log of logs) expect(log.find('warn', GONE)).toEqual([]);
    });

    it('serves every request uncounted while Redis is away, with one warning per process', async () => {
      await redis.stop();
      const ip = newIp();
      for (let i = 0; i < 10; i++) {
        const started = performance.now();
        expect(await status(i % 2 ? one : two, ip)).toBe(200);
        expect(performance.now() - started).toBeLessThan(2500); // no request waits for Redis
      }
      for (const log of logs) await vi.waitFor(() => expect(log.find('warn', GONE)).toHaveLength(1), { timeout: 5000 });
      // ioredis keeps trying to reconnect meanwhile: more requests and attempts, still the one warning
      for (let i = 0; i < 20; i++) expect(await status(one, ip)).toBe(200);
      for (const log of logs) {
        expect(log.find('warn', GONE)).toHaveLength(1);
        expect(log.lines.filter((l) => l.level >= 50)).toEqual([]);
      }
    });

    it('shares the limits again once Redis is back, with one line saying so', async () => {
      await redis.start();
      for (const log of logs)
        await vi.waitFor(() => expect(log.find('info', BACK)).toHaveLength(1), { timeout: 10_000, interval: 50 });
      await expectShared();
      for (const log of logs) {
        expect(log.find('warn', GONE)).toHaveLength(1);
        expect(log.find('info', BACK)).toHaveLength(1);
      }
    });
  });
}
