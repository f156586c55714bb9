// Release, rollback and pruning: a build goes live in one UPDATE of the game's row (pages already loaded keep their file
// set), and builds past builds.keep are pruned with their files.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { AppError, notFound } from '../../http/errors.js';
import { forgetStatusCounts } from '../status/status.counts.js';
import { type BuildView, type GameRef, toBuildView } from './build-views.js';
import {
  type BuildRow,
  findBuild,
  findBuildBySet,
  findBuilds,
  findGameSets,
  lockGame,
  markPruned,
  markReleased,
  type ReleaseTarget,
} from './builds.repository.js';
import { hasActiveSession } from './games.repository.js';
import type { GameManifest } from './manifest.js';
import { removeOldSets } from './publish.service.js';
import { slugPrefix } from './files.js';
import { searchTextOf } from './search.js';
import { updateGame } from './studio-games.repository.js';

export interface ReleaseResult {
  build: BuildView;
  /** the number of the build that was live before, null when none (or a file set published by an operator) */
  previous: number | null;
  /** false when the build was live already */
  changed: boolean;
}

/** The columns a release writes: the build's own fields always; the listing's only on the game's first release. */
function releaseValues(manifest: GameManifest, build: BuildRow, game: ReleaseTarget, now: number) {
  const first = game.files_dir === '';
  const listing = first
    ? {
        name: manifest.name,
        tagline: manifest.tagline,
        description: manifest.description,
        category: manifest.category,
        tags: JSON.stringify(manifest.tags),
        author: manifest.author,
        released_at: manifest.released_at,
        orientation: manifest.orientation,
        requires_premium: manifest.requires_premium ? (1 as const) : (0 as const),
        search_text: searchTextOf(manifest),
      }
    : {};
  return {
    ...listing,
    files_dir: build.files_dir,
    entry: build.entry,
    previous_files_dir: first ? null : game.files_dir,
    previous_entry: first ? null : game.entry,
    version: manifest.version,
    cover: manifest.cover,
    players_min: manifest.players.min,
    players_max: manifest.players.max,
    leaderboard_enabled: manifest.leaderboard.enabled ? (1 as const) : (0 as const),
    leaderboard_order: manifest.leaderboard.order,
    leaderboard_unit: manifest.leaderboard.unit,
    save_slots: manifest.save_slots,
    cross_origin_isolated: manifest.cross_origin_isolated ? (1 as const) : (0 as const),
    updated_at: now,
  };
}

async function switchTo(ctx: AppContext, trx: Executor, game: ReleaseTarget, build: BuildRow) {
  const now = ctx.clock.now();
  if (build.state !== 'ready')
    throw new AppError('build_pruned', `Build ${build.number} is pruned: its files are deleted`);
  const previous = game.files_dir ? ((await findBuildBySet(trx, game.id, game.files_dir))?.number ?? null) : null;
  if (build.files_dir === game.files_dir) return { previous, changed: false };
  await updateGame(trx, game.id, releaseValues(JSON.parse(build.manifest) as GameManifest, build, game, now));
  await markReleased(trx, build.id, now);
  return { previous, changed: true };
}

async function released(
  ctx: AppContext,
  game: GameRef,
  number: number,
  outcome: { previous: number | null; changed: boolean },
) {
  if (outcome.changed) {
    forgetStatusCounts(ctx); // GET /status counts the listed games again
    await tidyGameFiles(ctx, game);
  }
  const row = (await findBuild(ctx.db, game.id, number))!;
  return { build: toBuildView(ctx, game.slug, row, row.files_dir), ...outcome };
}

/** Makes build `number` the one players get, in one write with the game's row locked; releasing the live build changes nothing. */
export async function releaseBuild(ctx: AppContext, game: GameRef, number: number): Promise<ReleaseResult> {
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const target = await lockGame(trx, game.id);
    if (!target) throw notFound(`No game ${game.slug}`);
    const build = await findBuild(trx, game.id, number);
    if (!build) throw notFound(`No build ${number} of ${game.slug}`);
    return switchTo(ctx, trx, target, build);
  });
  return released(ctx, game, number, outcome);
}

/** Releases the build that was live before the current one (a second rollback comes back). */
export async function rollbackBuild(ctx: AppContext, game: GameRef): Promise<ReleaseResult> {
  let number = 0;
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const target = await lockGame(trx, game.id);
    if (!target) throw notFound(`No game ${game.slug}`);
    const build = target.previous_files_dir ? await findBuildBySet(trx, game.id, target.previous_files_dir) : undefined;
    if (!build)
      throw new AppError(
        'no_previous_build',
        'No build was live before the current one: release a build by its number',
      );
    number = build.number;
    return switchTo(ctx, trx, target, build);
  });
  return released(ctx, game, number, outcome);
}

/**
 * Prunes the builds past the newest builds.keep, never the live one nor the one it replaced; while a play session of
 * the game is active, builds that were ever live are left for a later prune (a page may still load their files).
 */
export async function pruneBuilds(ctx: AppContext, game: GameRef): Promise<number[]> {
  const now = ctx.clock.now();
  const target = await findGameSets(ctx.db, game.id);
  if (!target) return [];
  const ready = (await findBuilds(ctx.db, game.id)).filter((b) => b.state === 'ready');
  let old = ready
    .slice(ctx.config.builds.keep)
    .filter((b) => b.files_dir !== target.files_dir && b.files_dir !== target.previous_files_dir);
  if (
    old.some((b) => b.released_at !== null) &&
    (await hasActiveSession(ctx.db, game.id, now - ctx.config.session_idle_timeout * 1000))
  )
    old = old.filter((b) => b.released_at === null);
  const pruned: number[] = [];
  for (const build of old) {
    if (!(await markPruned(ctx.db, build.id, now))) continue;
    pruned.push(build.number);
    await ctx.storage.deletePrefix(`${slugPrefix(game.slug)}/${build.files_dir}/`);
  }
  return pruned;
}

/** After a new build or a release: prunes old builds and removes file sets nothing names. Failures are logged only. */
export async function tidyGameFiles(ctx: AppContext, game: GameRef): Promise<void> {
  try {
    await pruneBuilds(ctx, game);
    await removeOldSets(ctx, game.slug);
  } catch (error) {
    ctx.log.warn({ err: error, slug: game.slug }, 'old builds could not be pruned (a later build or release does it)');
  }
}
