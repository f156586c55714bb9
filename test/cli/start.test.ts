// `gameplatform serve` started as a newcomer does, the CLI in a child process with only PORT set (a fresh folder,
// SQLite, no configuration): the portal's own origin follows the port, so registering from it works, and a public_url
// on another port is warned about in the log. The process is tsx over the sources, as `npm start` runs the build.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { tempDir } from '../helpers/temp.js';

const root = path.resolve(import.meta.dirname, '../..');

interface Started {
  child: ChildProcess;
  output: string[];
}

const started: Started[] = [];

function serve(env: Record<string, string>): Started {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'src/cli.ts'), 'serve'], {
    cwd: tempDir('gp-start-'),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const instance = { child, output };
  started.push(instance);
  return instance;
}

function post(port: number, url: string, body: unknown): Promise<{ status: number; body: any }> {
  const target = new URL(url);
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: 'localhost',
        port,
        method: 'POST',
        path: target.pathname,
        headers: { host: target.host, origin: target.origin, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Waits for the log line saying the service is listening. */
async function listening(instance: Started): Promise<string> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const log = instance.output.join('');
    if (/"msg":"serving /.test(log) || / serving http/.test(log)) {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the lines written right after it
      return instance.output.join('');
    }
    if (instance.child.exitCode !== null) throw new Error(`serve exited: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`serve did not start: ${instance.output.join('')}`);
}

afterEach(async () => {
  for (const { child } of started.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('gameplatform serve with only PORT set', () => {
  it('serves the portal on http://gameplatform.localhost:<PORT>, whose register call is accepted', async () => {
    const port = await freePort();
    const instance = serve({ PORT: String(port) });
    const log = await listening(instance);
    const origin = `http://gameplatform.localhost:${port}`;
    expect(log).toContain(`serving ${origin}`);
    expect(log).toContain(`games at http://{slug}.games.gameplatform.localhost:${port}`);
    expect(log).not.toMatch(/names port/);
    const res = await post(port, `${origin}/v1/auth/register`, {
      email: `start${process.pid}@example.com`,
      password: 'correct horse battery staple',
      display_name: 'First Start',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }, 120_000);

  it('warns at start when public_url names another port and no proxy is trusted', async () => {
    const port = await freePort();
    const instance = serve({ PORT: String(port), GP_PUBLIC_URL: 'http://gameplatform.localhost:8080' });
    const log = await listening(instance);
    expect(log).toContain(
      `public_url http://gameplatform.localhost:8080 names port 8080 but the service listens on port ${port}`,
    );
    expect(log).toContain('trust_proxy is unset');
  }, 120_000);

  it('with port 0, names the port it took', async () => {
    const instance = serve({ PORT: '0' });
    const log = await listening(instance);
    const port = Number(/serving http:\/\/gameplatform\.localhost:(\d+)/.exec(log)?.[1]);
    expect(port).toBeGreaterThan(0);
    const res = await post(port, `http://gameplatform.localhost:${port}/v1/auth/register`, {
      email: `zero${process.pid}@example.com`,
      password: 'correct horse battery staple',
      display_name: 'Port Zero',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }, 120_000);
});
