// Prints the functions with the most self time in a V8 CPU profile (node --cpu-prof), grouped by function and file,
// and the share of the busy time spent in Kysely, SQLite/pg, pino and Fastify. Run: npx tsx bench/profile-top.ts <file.cpuprofile>
import { readFileSync } from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { nodes: Node[]; samples: number[] };
const self = new Map<string, number>();
const byPackage = new Map<string, number>();
let busy = 0;
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') {
    if (functionName !== '(idle)') self.set(functionName, (self.get(functionName) ?? 0) + hits);
    if (functionName === '(idle)') continue;
  } else self.set(`${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber}`, (self.get(`${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, '')}:${lineNumber}`) ?? 0) + hits);
  busy += hits;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.includes('/dist/src/') ? 'service' : url.startsWith('node:') ? 'node' : functionName.startsWith('(') ? functionName : 'native');
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
}
const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
console.log('busy time by package:');
for (const [pkg, n] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${pct(n)}  ${pkg}`);
console.log('top functions (self):');
for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${pct(n)}  ${name}`);
