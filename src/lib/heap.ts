// V8 settings for the serving process, applied before the web stack loads (cli.ts, serve). The young generation's size
// cannot change once the process runs: `npm start` passes --max-semi-space-size (docs/operations.md, "Memory").
import v8 from 'node:v8';

/**
 * Two V8 settings for the serving process (bench/RESULTS.md), both read by V8 at each collection, so setting them at run time
 * takes effect (Node.js does not take them in NODE_OPTIONS):
 *
 * - **No allocation-site pretenuring.** V8 allocates objects straight in the old generation when most objects from
 *   the same place in the code survived a young collection. A request's objects live for one request, but at start-up
 *   (migrations, the demo games, the first bursts) allocation sites of Node's HTTP layer and of Fastify can see many
 *   survivors and get pretenured. From then on their objects land in the old generation, keep the request's young
 *   objects alive through each scavenge, and every request's garbage is promoted: under a steady load 12–25 % of the
 *   young generation survived each scavenge (0.2–1 % without pretenuring), the old generation grew by about 10 MB a
 *   second between full collections, and the process's RSS reached 450–500 MB. Whether a process fell into that state
 *   varied from one start to the next.
 * - **The old generation grows to 1.5 times what the last full collection kept**, not up to 4 times: with little
 *   promoted any more, full collections stay rare, and the heap stays near the live data (about 70 MB) rather than
 *   keeping 200 MB of garbage between collections.
 */
export function tuneHeapForServing(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  v8.setFlagsFromString('--heap-growing-percent=50');
}
