// scripts/current-node.js, under `npm test`: on a supported Node.js it runs the command as it is; on an older one (this
// machine's Debian Node 20, when it has one) it runs it on the Active LTS from the registry's cache and says so once.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const script = path.join(root, 'scripts/current-node.js');
const versions = JSON.parse(readFileSync(path.join(root, 'scripts/node-versions.json'), 'utf8')) as { lts: string };

/** A Node.js older than engines on this machine (Debian's), or null. */
function oldNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    if (Number(version.split('.')[0]) < 22) return candidate;
  }
  return null;
}

describe('npm test on the Node.js it needs', () => {
  it('runs the command on the Node.js that runs it when that one is supported, with its exit code', () => {
    const ok = spawnSync(process.execPath, [script, process.execPath, '-p', 'process.version'], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim()).toBe(process.version);
    const failing = spawnSync(process.execPath, [script, process.execPath, '-e', 'process.exit(3)'], {
      encoding: 'utf8',
    });
    expect(failing.status).toBe(3);
    expect(failing.stdout).toBe('');
  });

  const old = oldNode();
  it.skipIf(!old)(
    `runs on Node.js ${versions.lts} from the registry on an older Node.js, saying so in one line`,
    () => {
      const run = spawnSync(old!, [script, 'node', '-p', 'process.version'], { encoding: 'utf8', timeout: 120_000 });
      expect(run.status).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^Node\.js v\d+\.\d+\.\d+ is older than this project needs \(>=22\.12\): running on Node\.js /,
      );
      expect(lines[1]).toBe(`v${versions.lts}`);
    },
  );
});
