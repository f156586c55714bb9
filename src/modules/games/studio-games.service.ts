// A game as its studio and the operators see it: any status, its live build, its review; new draft games; hand-overs.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { findBuildBySet } from './builds.repository.js';
import { gameBaseUrl, gamesUrlOf } from './game-origin.js';
import { listingMediaUrls } from './listing-media.service.js';
import { CATEGORY_PATTERN, LIMITS, SLUG_PATTERN } from './manifest.js';
import { deletePreviewSessions } from './preview.repository.js';
import { searchTextOf } from './search.js';
import {
  findGameBySlug,
  findGamesOfStudios,
  insertDraftGame,
  type StudioGameRow,
  updateGame,
} from './studio-games.repository.js';
import { forgetStatusCounts } from '../status/status.counts.js';

export type { StudioGameRow };

export interface StudioGameView {
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  category: string;
  tags: string[];
  orientation: string;
  requires_premium: boolean;
  status: string;
  author: string;
  released_at: string;
  /** the live build's version; null before the first release */
  version: string | null;
  /** the live build's number; null before the first release, or when an operator published the files directly */
  live_build: number | null;
  cover_url: string | null;
  screenshots: string[];
  play_url: string;
  /** where the game's files are served (games_url with its slug) */
  files_url: string;
  review: { status: 'pending' | 'rejected'; requested_status: string; note: string | null; at: string } | null;
  created_at: string;
  updated_at: string;
}

export function findStudioGame(ctx: AppContext, slug: string): Promise<StudioGameRow | undefined> {
  return findGameBySlug(ctx.db, slug);
}

export function gamesOfStudios(ctx: AppContext, studioIds: number[]): Promise<StudioGameRow[]> {
  return findGamesOfStudios(ctx.db, studioIds);
}

function reviewOf(row: StudioGameRow): StudioGameView['review'] {
  if (row.review_status !== 'pending' && row.review_status !== 'rejected') return null;
  return {
    status: row.review_status,
    requested_status: row.review_target ?? '',
    note: row.review_note,
    at: formatTimestamp(Number(row.review_at ?? 0)),
  };
}

export async function studioGameView(ctx: AppContext, row: StudioGameRow): Promise<StudioGameView> {
  const live = row.files_dir ? await findBuildBySet(ctx.db, row.id, row.files_dir) : undefined;
  const media = listingMediaUrls(ctx, row);
  return {
    slug: row.slug,
    name: row.name,
    tagline: row.tagline,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    orientation: row.orientation,
    requires_premium: row.requires_premium === 1,
    status: row.status,
    author: row.author,
    released_at: row.released_at,
    version: row.files_dir ? row.version : null,
    live_build: live?.number ?? null,
    ...media,
    play_url: `${ctx.config.public_url}/play/${encodeURIComponent(row.slug)}`,
    files_url: gameBaseUrl(ctx.config, row.slug),
    review: reviewOf(row),
    created_at: formatTimestamp(Number(row.created_at)),
    updated_at: formatTimestamp(Number(row.updated_at)),
  };
}

export interface NewStudioGame {
  slug: string;
  name: string;
  category: string;
  author: string;
}

function checkNewGame(ctx: AppContext, input: NewStudioGame): void {
  const problems: Record<string, string> = {};
  const hostLabel = gamesUrlOf(ctx.config).layout === 'host';
  if (!SLUG_PATTERN.test(input.slug) || (hostLabel && input.slug.length > 63))
    problems.slug = `must be 1 to ${hostLabel ? 63 : 64} lower-case letters, digits and hyphens, starting and ending with a letter or digit`;
  const name = input.name.trim();
  if (!name || [...name].length > LIMITS.name) problems.name = `must be 1 to ${LIMITS.name} characters`;
  if (!CATEGORY_PATTERN.test(input.category))
    problems.category =
      'must be 1 to 32 lower-case letters, digits and hyphens, starting and ending with a letter or digit';
  if (Object.keys(problems).length) throw validationFailed(problems);
}

/** A new game of the studio, in draft and without files: its first released build fills the listing it does not set. */
export async function createStudioGame(
  ctx: AppContext,
  studioId: number,
  input: NewStudioGame,
): Promise<StudioGameRow> {
  checkNewGame(ctx, input);
  const now = ctx.clock.now();
  const listing = {
    name: input.name.trim(),
    tagline: null,
    description: null,
    tags: [] as string[],
    author: input.author,
  };
  const id = await insertDraftGame(ctx.db, {
    ...listing,
    slug: input.slug,
    category: input.category,
    tags: '[]',
    version: '0.0.0',
    orientation: 'any',
    players_min: 1,
    players_max: 1,
    leaderboard_enabled: 0,
    leaderboard_order: 'desc',
    leaderboard_unit: 'points',
    save_slots: 0,
    requires_premium: 0,
    status: 'draft',
    released_at: new Date(now).toISOString().slice(0, 10),
    cover: '',
    entry: 'index.html',
    files_dir: '',
    search_text: searchTextOf(listing),
    studio_id: studioId,
    created_at: now,
    updated_at: now,
  });
  if (id === undefined) throw new AppError('slug_taken', `The slug ${input.slug} is taken by another game`);
  return (await findGameBySlug(ctx.db, input.slug))!;
}

/** Hands a game to a studio (or back to the operators with null); its previews by the old studio's members end. */
export async function setGameStudio(
  ctx: AppContext,
  slug: string,
  studioId: number | null,
  /** called in the change's transaction with the former studio (the operator console's audit entry) */
  onChange?: (trx: Executor, formerStudioId: number | null) => Promise<unknown>,
): Promise<StudioGameRow> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  if (game.studio_id === studioId) return game;
  await ctx.db.transaction().execute(async (trx) => {
    await updateGame(trx, game.id, { studio_id: studioId, updated_at: ctx.clock.now() });
    await deletePreviewSessions(trx, [game.id]);
    await onChange?.(trx, game.studio_id);
  });
  forgetStatusCounts(ctx);
  return (await findGameBySlug(ctx.db, slug))!;
}

/** A member left the studio: their previews of its games end. */
export async function endPreviews(ctx: AppContext, gameIds: number[], playerId: number): Promise<void> {
  await deletePreviewSessions(ctx.db, gameIds, playerId);
}
