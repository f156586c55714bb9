// The demo games under games/: published through the games publish service on the first start, when the catalogue is empty (docs/game-developers.md, "Demo games").
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { publishGame } from '../games/publish.service.js';
import { builtGamesRoot, hasSources } from './demo-build.js';
import { hasAnyGame } from './portal.repository.js';
import { packageRoot } from './web-root.js';

export const demoGamesDir = (): string => path.join(packageRoot(), 'games');

/**
 * Directories under `root` that hold a game.json, in name order. A game with sources (games/<name>/src/main.ts) is
 * published from its build, dist/games/<name> (npm run build makes it).
 */
export function demoGameDirs(root = demoGamesDir(), built = builtGamesRoot()): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, entry.name, 'game.json')))
    .map((entry) =>
      hasSources(path.join(root, entry.name)) ? path.join(built, entry.name) : path.join(root, entry.name),
    )
    .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
}

/**
 * Publishes every demo game when no game exists at all; returns the slugs published. A catalogue with any game,
 * even a retired one, is left alone: operators who removed the demos do not get them back on a restart.
 */
export async function publishDemoGamesIfEmpty(ctx: AppContext, root = demoGamesDir()): Promise<string[]> {
  if (await hasAnyGame(ctx.db)) return [];
  const published: string[] = [];
  for (const dir of demoGameDirs(root)) {
    try {
      published.push((await publishGame(ctx, dir)).slug);
    } catch (error) {
      // Another process starting at the same moment may publish the same game: that is not a reason to stop.
      ctx.log.warn({ err: error, dir }, 'demo game not published');
    }
  }
  return published;
}
