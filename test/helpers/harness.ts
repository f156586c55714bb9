// Builds the real app on a fresh database of each enabled dialect, with a manual clock; one describe block per dialect.
import { afterAll, beforeAll, describe } from 'vitest';
import { createHarness, type Harness, type HarnessOptions } from './app.js';
import { enabledDialects } from './dialects.js';

export { TEST_ORIGIN, createHarness, testConfig, type Harness, type HarnessOptions } from './app.js';

/**
 * Runs `body` once per enabled dialect, inside `describe(<dialect>)`, with a harness built before the block.
 * The harness is a live object: read its fields inside hooks and tests, not at collection time.
 */
export function eachDialect(name: string, body: (h: Harness) => void, options: HarnessOptions = {}): void {
  for (const dialect of enabledDialects()) {
    describe(`${name} [${dialect}]`, () => {
      const harness = {} as Harness & { close(): Promise<void> };
      beforeAll(async () => {
        Object.assign(harness, await createHarness(dialect, options));
      });
      afterAll(async () => {
        await harness.close?.();
      });
      body(harness);
    });
  }
}
