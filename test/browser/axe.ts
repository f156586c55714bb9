// axe-core in the browser tests: injected into the page (through the DevTools protocol, so the page's CSP does not
// stop it) and run on the whole document; violations of impact serious or critical fail the test.
import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

const BLOCKING = ['serious', 'critical'];

/**
 * The serious and critical axe violations on the page as it is now (frames of games are the games' own: not run), or in
 * one frame (a game's document, run on its own).
 */
export async function axeViolations(page: Page | Frame): Promise<AxeViolation[]> {
  if ((await page.evaluate('typeof window.axe')) !== 'object') await page.evaluate(axe.source);
  // A string runs in the page (this project's Node types have no DOM).
  const violations =
    (await page.evaluate(`axe.run(document, { iframes: false, resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 240)) })))`)) as AxeViolation[];
  return violations.filter((v) => BLOCKING.includes(v.impact ?? ''));
}

/** Asserts that axe finds nothing serious or critical; `where` names the page in the failure. */
export async function expectAccessible(page: Page | Frame, where: string): Promise<void> {
  const violations = await axeViolations(page);
  expect({ where, violations }).toEqual({ where, violations: [] });
}
