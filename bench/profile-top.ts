// Summarises a V8 CPU profile (node --cpu-prof; bench:http writes one with BENCH_PROFILE): the busy samples per
// second (to find a route's window), then for one window the functions with the most inclusive time (the function
// and everything it called) and the most self time, grouped by function and file.
//
// Run: npx tsx bench/profile-top.ts <file.cpuprofile> [from-second to-second] [filter-regexp]
// Without a window it takes the busiest 5 s. The filter keeps only matching lines of the inclusive list.
// Read with care: samples are wall-clock ticks, so a function that blocks or is preempted (a socket write that wakes
// the load generator on the other core) shows time the process did not spend on the CPU; bench:http's CPU per
// request, from /proc, is the measure.
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const [file, fromArg, toArg, filterArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [from-second to-second] [filter]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

let t = profile.startTime;
const times = profile.timeDeltas.map((d) => (t += d));
const second = (i: number) => Math.floor((times[i]! - profile.startTime) / 1e6);
const idle = (i: number) => byId.get(profile.samples[i]!)!.callFrame.functionName === '(idle)';

const perSecond: number[] = [];
for (let i = 0; i < times.length; i++) if (!idle(i)) perSecond[second(i)] = (perSecond[second(i)] ?? 0) + 1;
console.log(`busy samples per second: ${perSecond.map((n, s) => `${s}:${n ?? 0}`).join(' ')}`);

let from: number;
let to: number;
if (fromArg !== undefined && toArg !== undefined) [from, to] = [Number(fromArg), Number(toArg)];
else {
  let best = -1;
  [from, to] = [0, 5];
  for (let s = 0; s < perSecond.length; s++) {
    const sum = perSecond.slice(s, s + 5).reduce((a, b) => a + (b ?? 0), 0);
    if (sum > best) [best, from, to] = [sum, s, s + 5];
  }
}

const name = (n: Node) => {
  const { functionName, url, lineNumber } = n.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber}`;
};
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
let busy = 0;
for (let i = 0; i < times.length; i++) {
  if (idle(i) || second(i) < from || second(i) >= to) continue;
  busy++;
  const leaf = byId.get(profile.samples[i]!)!;
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const key = name(byId.get(id)!);
    if (seen.has(key)) continue; // recursion counts once
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
  }
}
const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
const filter = filterArg ? new RegExp(filterArg) : null;
console.log(`window ${from}–${to} s: ${busy} busy samples`);
console.log('inclusive:');
for (const [key, n] of [...inclusive]
  .filter(([key]) => !filter || filter.test(key))
  .sort((a, b) => b[1] - a[1])
  .slice(0, 60))
  console.log(`  ${pct(n)}  ${key}`);
console.log('self:');
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${pct(n)}  ${key}`);
