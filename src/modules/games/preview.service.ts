// Previewing a build in the real play shell: a `pv_` token that serves that build's entry file for PREVIEW_HOURS, not
// metered and not counted as a play; the game is told the build's own settings (save slots, leaderboard).
import type { AppContext } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { newSecret, sha256 } from '../../lib/secrets.js';
import { formatTimestamp } from '../../time.js';
import type { GameRef } from './build-views.js';
import { findBuild } from './builds.repository.js';
import { PREVIEW_TOKEN_PREFIX } from './entry-gate.js';
import { gameFileUrl } from './game-origin.js';
import { findGameId } from './games.repository.js';
import type { GameManifest } from './manifest.js';
import { deleteExpiredPreviewSessions, insertPreviewSession } from './preview.repository.js';

export const PREVIEW_HOURS = 12;

export interface PreviewStart {
  session: string;
  build: number;
  entry_url: string;
  expires_at: string;
  cross_origin_isolated: boolean;
  /** the game as the build describes it, for the shell and the SDK's init() */
  game: {
    slug: string;
    name: string;
    version: string;
    save_slots: number;
    orientation: string;
    leaderboard: GameManifest['leaderboard'];
  };
}

export async function startPreview(
  ctx: AppContext,
  game: GameRef & { name: string },
  number: number,
  playerId: number,
): Promise<PreviewStart> {
  const build = await findBuild(ctx.db, game.id, number);
  if (!build) throw notFound(`No build ${number} of ${game.slug}`);
  if (build.state !== 'ready') throw new AppError('build_pruned', `Build ${number} is pruned: its files are deleted`);
  const manifest = JSON.parse(build.manifest) as GameManifest;
  const now = ctx.clock.now();
  const token = newSecret(PREVIEW_TOKEN_PREFIX);
  const expiresAt = now + PREVIEW_HOURS * 3_600_000;
  await deleteExpiredPreviewSessions(ctx.db, now);
  await insertPreviewSession(ctx.db, {
    token_hash: sha256(token),
    game_id: game.id,
    build_id: build.id,
    player_id: playerId,
    created_at: now,
    expires_at: expiresAt,
  });
  return {
    session: token,
    build: build.number,
    entry_url: `${gameFileUrl(ctx.config, game.slug, build.files_dir, build.entry)}?session=${encodeURIComponent(token)}`,
    expires_at: formatTimestamp(expiresAt),
    cross_origin_isolated: manifest.cross_origin_isolated,
    game: {
      slug: game.slug,
      name: game.name,
      version: manifest.version,
      save_slots: manifest.save_slots,
      orientation: manifest.orientation,
      leaderboard: manifest.leaderboard,
    },
  };
}

/** What a build's game.json sets for its saves and scores (the preview's saves and scores follow it). */
export async function buildSettings(
  ctx: AppContext,
  game: GameRef,
  number: number,
): Promise<Pick<GameManifest, 'save_slots' | 'leaderboard'>> {
  const build = await findBuild(ctx.db, game.id, number);
  if (!build) throw notFound(`No build ${number} of ${game.slug}`);
  const manifest = JSON.parse(build.manifest) as GameManifest;
  return { save_slots: manifest.save_slots, leaderboard: manifest.leaderboard };
}

/** Whether a build asks for cross-origin isolation (the preview page's shell then needs COEP); false when unknown. */
export async function buildIsIsolated(ctx: AppContext, slug: string, number: number): Promise<boolean> {
  const game = await findGameId(ctx.db, slug);
  const build = game ? await findBuild(ctx.db, game.id, number) : undefined;
  return build ? (JSON.parse(build.manifest) as GameManifest).cross_origin_isolated : false;
}
