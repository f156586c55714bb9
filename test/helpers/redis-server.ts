// A redis-server of the test's own on a free port (never the shared one at 6379), that a test can stop and restart.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './ports.js';

export interface TestRedis {
  url: string;
  /** Starts redis-server (again) on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops this redis-server process (only this one) and waits for it to exit. */
  stop(): Promise<void>;
}

export async function testRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      await new Promise<void>((resolve, reject) => {
        let output = '';
        started.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ready to accept connections')) resolve();
        });
        started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      });
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGKILL');
      await exited;
    },
  };
}
