#!/usr/bin/env node
// Runs a command (the test suite, its checks) on a Node.js this project supports. On a machine whose Node.js is older
// than package.json's engines (Debian's Node 20, say), it takes the Node.js that CI installs with from the npm
// registry's node-<platform>-<arch> package, once, into the same cache as CI, says so in one line, and runs the command
// there. Plain JavaScript with no dependency, so that it runs on any Node.js that can run npm.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
const versions = JSON.parse(readFileSync(path.join(root, 'scripts/node-versions.json'), 'utf8'));
const required = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node; // ">=22.12"

/** Whether `version` (x.y.z) satisfies a ">=x.y" range, the only form engines uses here. */
function satisfies(version, range) {
  const want = /^>=\s*(\d+)\.(\d+)/.exec(range);
  if (!want) return true;
  const [major, minor] = version.split('.').map(Number);
  return major > Number(want[1]) || (major === Number(want[1]) && minor >= Number(want[2]));
}

/** The directory of the registry's Node.js `version` in the cache CI uses; fetched when missing. */
function cachedNode(version) {
  const cache = path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'gameplatform-ci');
  const dir = path.join(cache, `node-${version}`);
  if (existsSync(path.join(dir, 'bin', 'node'))) return dir;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${platform}-${process.arch}`;
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(path.join(cache, '.fetch-'));
  const run = (command, args) => {
    const result = spawnSync(command, args, { cwd: scratch, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      console.error(
        `Could not fetch Node.js ${version} (${command} ${args.join(' ')} failed): install Node.js ${required}.`,
      );
      process.exit(1);
    }
  };
  run('npm', ['pack', '--silent', `${pkg}@${version}`]);
  run('tar', ['xzf', `${pkg}-${version}.tgz`]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(path.join(scratch, 'package'), dir);
  rmSync(scratch, { recursive: true, force: true });
  return dir;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/current-node.js <command> [args…]');
  process.exit(2);
}
const env = { ...process.env };
if (!satisfies(process.versions.node, required)) {
  const dir = cachedNode(versions.lts);
  console.log(
    `Node.js ${process.version} is older than this project needs (${required}): running on Node.js ${versions.lts} from the npm registry (${dir}).`,
  );
  env.PATH = `${path.join(dir, 'bin')}${path.delimiter}${env.PATH ?? ''}`;
  env.npm_config_nodedir = dir;
  env.npm_node_execpath = path.join(dir, 'bin', 'node');
  env.NODE = env.npm_node_execpath;
}
const result = spawnSync(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
if (result.error) {
  console.error(`${command}: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
