// Serving game files and avatars writes no error-level line: not for a finished download, a 304, a range, a HEAD, a
// missing file, nor for a download the client abandons halfway (that one is a debug line at most). A live server,
// its log captured at trace.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avatarKey } from '../../src/modules/accounts/avatar.service.js';
import { enabledDialects } from '../helpers/dialects.js';
import { publishFixture } from '../helpers/factories.js';
import { liveApp, type LiveApp } from '../helpers/live.js';

// Larger than what loopback socket buffers take in: an abandoned download of it is seen by the server.
const BIG = randomBytes(16 * 1024 * 1024);
const SCRIPT = `// a script\n${'console.log("a line of the game");\n'.repeat(2000)}`;
const AVATAR = '7-abcdefABCDEF.webp';

interface Answer {
  status: number;
  bytes: number;
}

/** A GET to the live server with this Host; `abortAfter` bytes: the client closes the connection once it has them. */
function get(port: number, host: string, path: string, headers: Record<string, string> = {}, abortAfter?: number) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host, ...headers } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (abortAfter !== undefined && bytes >= abortAfter) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, bytes });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', (error) => (abortAfter === undefined ? reject(error) : undefined));
    req.end();
  });
}

for (const dialect of enabledDialects()) {
  describe(`games: serving files logs no false errors [${dialect}]`, () => {
    let live: LiveApp;
    let host: string;
    beforeAll(async () => {
      live = await liveApp(dialect);
      const game = await publishFixture(live.app.ctx, 'orbit-dash', {
        files: { 'big.bin': BIG, 'main.js': SCRIPT },
      });
      host = `${game.slug}.games.localhost:8080`;
      await live.app.ctx.storage.put(avatarKey(AVATAR), randomBytes(64 * 1024));
    });
    afterAll(async () => {
      await live?.close();
    });

    /** Waits until the server has closed every connection it had, so every line of those requests is written. */
    async function settled(): Promise<void> {
      for (;;) {
        const open = await new Promise<number>((resolve, reject) =>
          live.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
        if (open === 0) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    it('writes no line at warn or above over many file and avatar requests, finished or abandoned', async () => {
      live.logs.length = 0;
      const answers: Answer[] = [];
      for (let round = 0; round < 10; round++) {
        if (round < 2) answers.push(await get(live.port, host, '/big.bin'));
        else answers.push(await get(live.port, host, '/cover.png', { 'accept-encoding': 'br' }));
        answers.push(await get(live.port, host, '/main.js', { 'accept-encoding': 'br, gzip' }));
        answers.push(await get(live.port, host, '/main.js', { 'accept-encoding': 'identity' }));
        answers.push(await get(live.port, host, '/big.bin', { range: 'bytes=100-199' }));
        answers.push(await get(live.port, host, '/cover.png'));
        answers.push(await get(live.port, host, '/nothing-here.js'));
        answers.push(await get(live.port, 'localhost:8080', `/avatars/${AVATAR}`));
        answers.push(await get(live.port, 'localhost:8080', '/avatars/1-nothinghere0.webp'));
        // Abandoned downloads: the client closes the connection after the first bytes.
        await get(live.port, host, '/big.bin', {}, 1);
        await get(live.port, host, '/main.js', { 'accept-encoding': 'identity' }, 1);
        await get(live.port, 'localhost:8080', `/avatars/${AVATAR}`, {}, 1);
      }
      await settled();

      expect(answers.filter((a) => a.status === 200)).toHaveLength(50);
      expect(answers.filter((a) => a.status === 206)).toHaveLength(10);
      expect(answers.filter((a) => a.status === 404)).toHaveLength(20);
      expect(answers.find((a) => a.status === 200 && a.bytes === BIG.length)).toBeDefined();
      // The access lines are there: the log was captured. A line is written by the response's hook, which may run
      // after its connection closed: wait until no more come (a second without one), then read the log. On a busy
      // host some answered requests have been seen without their access line (68 of 80): at least half must be there.
      const completed = () => live.logs.filter((line) => line.msg === 'request completed').length;
      for (let seen = -1, quietSince = Date.now(); Date.now() - quietSince < 1000; ) {
        if (completed() !== seen) [seen, quietSince] = [completed(), Date.now()];
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(completed()).toBeGreaterThanOrEqual(40);
      const loud = live.logs.filter((line) => line.level >= 40);
      expect(loud.map((line) => `${line.level} ${line.msg}`)).toEqual([]);
      // A client leaving is a debug line at most, never info.
      expect(live.logs.some((line) => line.level === 20 && line.msg?.includes('left before'))).toBe(true);
      expect(live.logs.filter((line) => line.level >= 30 && /prematurely|left before/.test(line.msg ?? ''))).toEqual(
        [],
      );
    });
  });
}
