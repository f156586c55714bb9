// Builds: a checked zip becomes a numbered, immutable file set of the game (stored by publish's storing step), listed
// with its version, size, uploader and time. Releasing one is release.service.ts.
import type { AppContext } from '../../context.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { unpackBuild, type BuildLimits } from './build-zip.js';
import { type BuildView, type GameRef, toBuildView, type Uploader } from './build-views.js';
import { findBuild, findBuilds, findLiveSet, insertBuild, lockGame, nextBuildNumber } from './builds.repository.js';
import { newBuildSetName, slugPrefix } from './files.js';
import { parseManifest, type GameManifest } from './manifest.js';
import { PUBLISHING_MARKER, uploadFiles } from './publish.service.js';
import { tidyGameFiles } from './release.service.js';

export type { BuildView, GameRef, Uploader };

export function buildLimits(ctx: AppContext): BuildLimits {
  const { max_files, max_bytes, max_ratio } = ctx.config.builds;
  return { maxFiles: max_files, maxBytes: max_bytes, maxRatio: max_ratio };
}

/** game.json's text as `games publish` reads it: the same messages for a missing or unreadable file. */
function readManifestText(text: string | null): unknown {
  if (text === null) throw validationFailed({ 'game.json': 'not found at the top of the zip' }, 'game.json is missing');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw validationFailed({ 'game.json': `is not valid JSON: ${(error as Error).message}` }, 'game.json is not valid');
  }
}

function checkManifest(game: GameRef, text: string | null, files: string[]): GameManifest {
  const manifest = parseManifest(readManifestText(text), new Set(files));
  if (manifest.slug !== game.slug)
    throw validationFailed(
      { slug: `is ${manifest.slug}, but this build is uploaded to the game ${game.slug}` },
      'game.json is not valid',
    );
  return manifest;
}

/** Numbers the build and inserts its row, with the game's row locked (concurrent builds of a game get 1, 2, 3…). */
async function recordBuild(ctx: AppContext, game: GameRef, values: Omit<Parameters<typeof insertBuild>[1], 'number'>) {
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockGame(trx, game.id))) throw notFound(`No game ${game.slug}`);
    const number = await nextBuildNumber(trx, game.id);
    await insertBuild(trx, { ...values, number });
    return number;
  });
}

/**
 * Makes a build of `zipFile` (unpacked into the empty folder `scratch`): checked, stored under a new file set, then
 * numbered in one insert, so a build is never seen half stored. A refusal (invalid_build, validation_failed) or a
 * failure leaves nothing in the store.
 */
export async function createBuild(
  ctx: AppContext,
  game: GameRef,
  zipFile: string,
  scratch: string,
  uploader: Uploader,
): Promise<BuildView> {
  const unpacked = await unpackBuild(zipFile, scratch, buildLimits(ctx));
  const manifest = checkManifest(game, unpacked.manifest, unpacked.files);
  const now = ctx.clock.now();
  const set = newBuildSetName(now);
  const prefix = `${slugPrefix(game.slug)}/${set}`;
  let number: number;
  try {
    await ctx.storage.put(`${prefix}/${PUBLISHING_MARKER}`, Buffer.from(String(now)));
    await uploadFiles(ctx, scratch, prefix, unpacked.files);
    number = await recordBuild(ctx, game, {
      game_id: game.id,
      version: manifest.version,
      files_dir: set,
      entry: manifest.entry,
      manifest: JSON.stringify(manifest),
      files: unpacked.files.length,
      bytes: unpacked.bytes,
      uploaded_by: uploader.playerId,
      uploaded_key_id: uploader.keyId,
      created_at: now,
    });
  } catch (error) {
    await ctx.storage
      .deletePrefix(`${prefix}/`)
      .catch((cleanup: unknown) =>
        ctx.log.warn({ err: cleanup, set: prefix }, 'an unfinished build could not be removed'),
      );
    throw error;
  }
  await ctx.storage
    .delete(`${prefix}/${PUBLISHING_MARKER}`)
    .catch((error: unknown) => ctx.log.warn({ err: error, set: prefix }, 'a build marker could not be removed'));
  await tidyGameFiles(ctx, game);
  return getBuild(ctx, game, number);
}

export async function listBuilds(ctx: AppContext, game: GameRef & { files_dir: string }): Promise<BuildView[]> {
  const rows = await findBuilds(ctx.db, game.id);
  return rows.map((row) => toBuildView(ctx, game.slug, row, game.files_dir));
}

export async function getBuild(ctx: AppContext, game: GameRef, number: number): Promise<BuildView> {
  const row = await findBuild(ctx.db, game.id, number);
  if (!row) throw notFound(`No build ${number} of ${game.slug}`);
  return toBuildView(ctx, game.slug, row, (await findLiveSet(ctx.db, game.id)) ?? '');
}
