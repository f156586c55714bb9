// The operator's view of the catalogue (games list, games set-status): every game, whatever its status.
import type { AppContext } from '../../context.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { findAllGames, findGameStatus, setGameFeatured, updateGameStatus } from './games.repository.js';
import { GAME_STATUSES, type GameStatus } from './manifest.js';
import { forgetStatusCounts } from '../status/status.counts.js';
import { type Actor, recordAudit } from '../audit/audit.service.js';
import { type CreatedKey, createDeveloperKey, revokeDeveloperKey } from './keys.service.js';

export interface GameSummary {
  slug: string;
  name: string;
  status: string;
  version: string;
  category: string;
  plays: number;
  files_dir: string;
  studio_id: number | null;
  /** when an operator featured it on the home page; null when not featured */
  featured_at: number | null;
}

export async function listAllGames(ctx: AppContext): Promise<GameSummary[]> {
  const rows = await findAllGames(ctx.db);
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    status: r.status,
    version: r.version,
    category: r.category,
    plays: Number(r.plays),
    files_dir: r.files_dir,
    studio_id: r.studio_id,
    featured_at: r.featured_at ?? null,
  }));
}

/** Any status to any other (DESIGN leaves the transitions open); only published and beta games are visible to clients. */
export async function setGameStatus(
  ctx: AppContext,
  slug: string,
  status: string,
): Promise<{ slug: string; from: string; to: GameStatus }> {
  if (!(GAME_STATUSES as readonly string[]).includes(status))
    throw validationFailed({ status: `must be one of ${GAME_STATUSES.join(', ')}` });
  const game = await findGameStatus(ctx.db, slug);
  if (!game) throw notFound(`No game ${slug}`);
  await updateGameStatus(ctx.db, game.id, status, ctx.clock.now());
  forgetStatusCounts(ctx); // GET /status counts the listed games again
  return { slug, from: game.status, to: status as GameStatus };
}

/** The operator console's status change (any status to any other), with its audit entry in the same transaction. */
export async function operatorSetGameStatus(
  ctx: AppContext,
  actor: Actor,
  slug: string,
  status: string,
  reason: string | null,
): Promise<{ slug: string; from: string; to: GameStatus }> {
  if (!(GAME_STATUSES as readonly string[]).includes(status))
    throw validationFailed({ status: `must be one of ${GAME_STATUSES.join(', ')}` });
  const from = await ctx.db.transaction().execute(async (trx) => {
    const game = await findGameStatus(trx, slug);
    if (!game) throw notFound(`No game ${slug}`);
    await updateGameStatus(trx, game.id, status, ctx.clock.now());
    await recordAudit(ctx, trx, {
      actor,
      studioId: null,
      action: 'game.set_status',
      targetType: 'game',
      targetId: slug,
      reason,
      before: { status: game.status },
      after: { status },
    });
    return game.status;
  });
  forgetStatusCounts(ctx);
  return { slug, from, to: status as GameStatus };
}

/**
 * An operator features a game on the home page (docs/api.md, "Catalogue decisions"), or no longer, with the audit entry
 * `game.feature` or `game.unfeature` in the same transaction; a game already so is left as it is, with no entry.
 */
export async function operatorSetFeatured(
  ctx: AppContext,
  actor: Actor,
  slug: string,
  featured: boolean,
  reason: string | null,
): Promise<{ slug: string; featured: boolean; featured_at: string | null }> {
  return ctx.db.transaction().execute(async (trx) => {
    const game = await findGameStatus(trx, slug);
    if (!game) throw notFound(`No game ${slug}`);
    let at = game.featured_at === null ? null : Number(game.featured_at);
    if ((at !== null) !== featured) {
      at = featured ? ctx.clock.now() : null;
      await setGameFeatured(trx, game.id, at);
      await recordAudit(ctx, trx, {
        actor,
        studioId: null,
        action: featured ? 'game.feature' : 'game.unfeature',
        targetType: 'game',
        targetId: slug,
        reason,
        before: { featured: !featured },
        after: { featured },
      });
    }
    return { slug, featured, featured_at: at === null ? null : new Date(at).toISOString() };
  });
}

/** A developer key made by an operator; the secret is in the answer only, never in the log. */
export function operatorCreateKey(
  ctx: AppContext,
  actor: Actor,
  input: { game: string; scopes: string; name?: string },
): Promise<CreatedKey> {
  return ctx.db.transaction().execute(async (trx) => {
    const key = await createDeveloperKey({ ...ctx, db: trx }, input);
    await recordAudit(ctx, trx, {
      actor,
      studioId: null,
      action: 'key.create',
      targetType: 'key',
      targetId: key.id,
      before: null,
      after: { game: key.game, name: key.name, scopes: key.scopes, prefix: key.prefix },
    });
    return key;
  });
}

export function operatorRevokeKey(ctx: AppContext, actor: Actor, id: number): Promise<{ revoked: boolean }> {
  return ctx.db.transaction().execute(async (trx) => {
    const result = await revokeDeveloperKey({ ...ctx, db: trx }, id);
    if (result.revoked)
      await recordAudit(ctx, trx, {
        actor,
        studioId: null,
        action: 'key.revoke',
        targetType: 'key',
        targetId: id,
        before: { revoked: false },
        after: { revoked: true },
      });
    return result;
  });
}
