// The Prometheus files the docs give (docs/prometheus/): promtool accepts the rules and the scrape configuration, the
// rules' unit tests pass (each alert fires when it should), and every metric the rules name is one the service serves.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/services/metrics/metrics.js';

const run = promisify(execFile);
const dir = new URL('../../docs/prometheus/', import.meta.url).pathname;

async function promtoolVersion(): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await run('promtool', ['--version']);
    return (stdout || stderr).split('\n')[0];
  } catch {
    return undefined;
  }
}

const version = await promtoolVersion();
if (!version)
  console.warn(
    'promtool is not installed: the promtool checks of docs/prometheus/ are skipped (Debian: apt-get install prometheus; .ci/run installs it)',
  );

describe('Prometheus rules and configuration', () => {
  it.runIf(version)('passes promtool check rules, check config and the rules unit tests', async () => {
    const promtool = (...args: string[]) => run('promtool', args, { cwd: dir });
    expect((await promtool('check', 'rules', 'alerts.yml')).stdout).toMatch(/SUCCESS: \d+ rules found/);
    expect((await promtool('check', 'config', 'prometheus.yml')).stdout).toMatch(/SUCCESS/);
    expect((await promtool('test', 'rules', 'alerts.test.yml')).stdout).toMatch(/SUCCESS/);
  });

  it('names only metrics the service serves, and covers errors, latency, readiness, the pool and mail', () => {
    const rules = readFileSync(`${dir}alerts.yml`, 'utf8');
    const exprs = [...rules.matchAll(/expr: (\|\n(?: {10}.*\n)+|.*)/g)].map((m) => m[1]!).join('\n');
    const metrics = createMetrics();
    metrics.infrastructure.trackRedis(() => true);
    metrics.infrastructure.trackListeners(() => []);
    const served = new Set(metrics.registry.getMetricsAsArray().map((m) => m.name));
    const named = new Set(
      [...exprs.matchAll(/\b(gameplatform_\w+|http_\w+)\b/g)].map((m) => m[1]!.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(named.size).toBeGreaterThan(8);
    for (const name of named) expect(served, name).toContain(name);
    for (const alert of [
      'GamePlatformErrorRate',
      'GamePlatformSlowApi',
      'GamePlatformNotReady',
      'GamePlatformPoolSaturated',
      'GamePlatformMailBacklog',
    ])
      expect(rules).toContain(`alert: ${alert}\n`);
  });

  it('is where docs/operations.md says it is', () => {
    const docs = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
    expect(docs).toContain('](prometheus/alerts.yml)');
    expect(docs).toContain('](prometheus/prometheus.yml)');
  });
});
