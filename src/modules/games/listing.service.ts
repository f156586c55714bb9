// A game's listing edited by its studio, and its status: draft → beta → published, through an operator's review when
// the setting studios.review is on (docs/api.md, "Studios and builds").
import type { AppContext } from '../../context.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { forgetStatusCounts } from '../status/status.counts.js';
import { isListed, type ListingPatch, parseListingPatch } from './manifest.js';
import { searchTextOf } from './search.js';
import {
  findGameBySlug,
  findPendingReviews,
  lockGameRow,
  type StudioGameRow,
  updateGame,
} from './studio-games.repository.js';

/** The statuses a studio moves its game between; `retired` is the operators' (games set-status). */
export const STUDIO_STATUSES = ['draft', 'beta', 'published'] as const;
export type StudioStatus = (typeof STUDIO_STATUSES)[number];

async function gameNamed(ctx: AppContext, slug: string): Promise<StudioGameRow> {
  const game = await findGameBySlug(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  return game;
}

/** Applies the listing fields given (game.json's rules and messages); the search text follows. */
export async function updateListing(
  ctx: AppContext,
  slug: string,
  raw: Record<string, unknown>,
): Promise<StudioGameRow> {
  const patch: ListingPatch = parseListingPatch(raw);
  const game = await gameNamed(ctx, slug);
  await ctx.db.transaction().execute(async (trx) => {
    const current = (await lockGameRow(trx, game.id))!;
    const merged = {
      name: patch.name ?? current.name,
      tagline: patch.tagline === undefined ? current.tagline : patch.tagline,
      description: patch.description === undefined ? current.description : patch.description,
      tags: patch.tags ?? (JSON.parse(current.tags) as string[]),
      author: current.author,
    };
    await updateGame(trx, game.id, {
      ...merged,
      tags: JSON.stringify(merged.tags),
      ...(patch.category === undefined ? {} : { category: patch.category }),
      ...(patch.orientation === undefined ? {} : { orientation: patch.orientation }),
      ...(patch.requires_premium === undefined ? {} : { requires_premium: patch.requires_premium ? 1 : 0 }),
      search_text: searchTextOf(merged),
      updated_at: ctx.clock.now(),
    });
  });
  return gameNamed(ctx, slug);
}

export interface StatusOutcome {
  game: StudioGameRow;
  /** false: the change waits for an operator's review */
  applied: boolean;
}

function checkStatusChange(game: StudioGameRow, status: string): StudioStatus {
  if (!(STUDIO_STATUSES as readonly string[]).includes(status))
    throw validationFailed({ status: `must be one of ${STUDIO_STATUSES.join(', ')}` });
  if (game.status === 'retired')
    throw new AppError('forbidden', 'An operator retired this game: ask them to bring it back');
  if (status !== 'draft' && !game.files_dir)
    throw validationFailed({ status: `needs a released build first: release one, then move the game to ${status}` });
  return status as StudioStatus;
}

/**
 * A studio moves its game. Back to draft is at once (and withdraws a pending review); beta and published are at once
 * too, unless studios.review is on and the caller is not an operator: then the request waits for the review.
 */
export async function requestStatus(
  ctx: AppContext,
  slug: string,
  status: string,
  byOperator: boolean,
): Promise<StatusOutcome> {
  const game = await gameNamed(ctx, slug);
  const target = checkStatusChange(game, status);
  const review = target !== 'draft' && !byOperator && ctx.config.studios.review && target !== game.status;
  const now = ctx.clock.now();
  await updateGame(
    ctx.db,
    game.id,
    review
      ? { review_status: 'pending', review_target: target, review_note: null, review_at: now, updated_at: now }
      : {
          status: target,
          review_status: null,
          review_target: null,
          review_note: null,
          review_at: null,
          updated_at: now,
        },
  );
  if (!review && isListed(target) !== isListed(game.status)) forgetStatusCounts(ctx);
  return { game: await gameNamed(ctx, slug), applied: !review };
}

export function pendingReviews(ctx: AppContext): Promise<StudioGameRow[]> {
  return findPendingReviews(ctx.db);
}

/** An operator decides a pending review: approved, the game takes the status asked for; rejected, it keeps its own. */
export async function decideReview(
  ctx: AppContext,
  slug: string,
  approve: boolean,
  note: string | null,
): Promise<StudioGameRow> {
  const game = await gameNamed(ctx, slug);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const current = (await lockGameRow(trx, game.id))!;
    if (current.review_status !== 'pending' || !current.review_target)
      throw notFound(`No review of ${slug} is pending`);
    await updateGame(
      trx,
      game.id,
      approve
        ? {
            status: current.review_target,
            review_status: null,
            review_target: null,
            review_note: null,
            review_at: null,
          }
        : { review_status: 'rejected', review_note: note, review_at: now },
    );
  });
  if (approve) forgetStatusCounts(ctx);
  return gameNamed(ctx, slug);
}
