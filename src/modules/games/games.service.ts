// The catalogue: listing and search, one game, favourites. Rows become API objects here (toGame).
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import type { PlayerCredential } from '../../http/auth.js';
import { gameAssetUrl } from './game-origin.js';
import { mediaUrl } from './listing-media.service.js';
import {
  countListedByCategory,
  deleteFavorite,
  findListedGame,
  findListedGames,
  findRelatedGames,
  searchListedGames,
  insertFavorite,
  isFavorite,
  lockPlayer,
  type GameRecord,
} from './games.repository.js';
import type { Game, GameSort } from './games.schemas.js';
import { gameRating, playerRating } from './ratings.service.js';

/** Names sort as people expect: case and accents second, "Game 2" before "Game 10"; the same on both databases. */
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function toGame(ctx: AppContext, row: GameRecord, favorite?: boolean): Game {
  const base = ctx.config.public_url;
  return {
    slug: row.slug,
    name: row.name,
    tagline: row.tagline,
    description: row.description,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    version: row.version,
    orientation: row.orientation as Game['orientation'],
    players: { min: row.players_min, max: row.players_max },
    leaderboard: {
      enabled: row.leaderboard_enabled === 1,
      order: row.leaderboard_order as Game['leaderboard']['order'],
      unit: row.leaderboard_unit,
    },
    save_slots: row.save_slots,
    requires_premium: row.requires_premium === 1,
    status: row.status as Game['status'],
    author: row.author,
    released_at: row.released_at,
    cover_url: row.cover_key
      ? mediaUrl(ctx.config, row.cover_key)
      : gameAssetUrl(ctx.config, row.slug, row.files_dir, row.cover),
    play_url: `${base}/play/${encodeURIComponent(row.slug)}`,
    stats: { plays: Number(row.plays), playtime_hours: Math.round(Number(row.playtime_seconds) / 360) / 10 },
    ...(row.featured_at == null ? {} : { featured: true as const }),
    ...(favorite === undefined ? {} : { is_favorite: favorite }),
  };
}

export interface GameListing {
  games: Game[];
  meta: { count: number; categories: Record<string, number> };
}

type Row = Pick<GameRecord, 'name' | 'slug' | 'plays' | 'created_at' | 'released_at'> & { relevance?: number };

const byNameThenSlug = (a: Row, b: Row) =>
  byName.compare(a.name, b.name) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0);

/** The orders of GET /games?sort= (the schema describes them); each ends on the name, then the slug, so it is total. */
const ORDERS: Record<GameSort, (a: Row, b: Row) => number> = {
  popular: (a, b) => Number(b.plays) - Number(a.plays) || byNameThenSlug(a, b),
  relevance: (a, b) => (b.relevance ?? 0) - (a.relevance ?? 0) || ORDERS.popular(a, b),
  new: (a, b) =>
    Number(b.created_at) - Number(a.created_at) ||
    (a.released_at < b.released_at ? 1 : a.released_at > b.released_at ? -1 : 0) ||
    byNameThenSlug(a, b),
  name: byNameThenSlug,
};

/**
 * GET /games: published and beta games in the asked order; categories counted before the category filter. With `q`, the
 * games matching it, most relevant first unless another order is asked (docs/api.md, "Search"). Without a category
 * filter the games listed are the ones counted: they are counted here, one statement instead of two (and one snapshot).
 */
export async function listGames(
  ctx: AppContext,
  query: { category?: string; q?: string; sort?: GameSort; featured?: boolean },
): Promise<GameListing> {
  const q = query.q?.trim();
  const category = query.category?.trim().toLowerCase() || undefined;
  let rows: Array<GameRecord & { relevance?: number }>;
  let counts: Map<string, number>;
  if (q) {
    rows = await searchListedGames(ctx.db, q);
    counts = countByCategory(rows);
    if (category !== undefined) rows = rows.filter((row) => row.category === category);
  } else {
    const [listed, counted] = await Promise.all([
      findListedGames(ctx.db, { category }),
      category === undefined ? undefined : countListedByCategory(ctx.db),
    ]);
    rows = listed;
    counts = counted ?? countByCategory(rows);
  }
  if (query.featured === true) {
    rows = rows.filter((row) => row.featured_at != null);
    if (query.sort === undefined) rows.sort((a, b) => Number(b.featured_at) - Number(a.featured_at));
  }
  if (query.featured !== true || query.sort !== undefined)
    rows.sort(ORDERS[query.sort ?? (q ? 'relevance' : 'popular')]);
  const categories = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { games: rows.map((row) => toGame(ctx, row)), meta: { count: rows.length, categories } };
}

function countByCategory(rows: readonly Pick<GameRecord, 'category'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.category, (counts.get(row.category) ?? 0) + 1);
  return counts;
}

/**
 * GET /games/{slug}: 404 unless published or beta; with its screenshots and rating; is_favorite and my_rating only
 * for a player.
 */
export async function getGame(ctx: AppContext, slug: string, player: PlayerCredential | null): Promise<Game> {
  const row = await findListedGame(ctx.db, slug);
  if (!row) throw notFound(`No game ${slug}`);
  const [favorite, rating, mine] = await Promise.all([
    player ? isFavorite(ctx.db, player.playerId, row.id) : undefined,
    gameRating(ctx, ctx.db, row.id),
    player ? playerRating(ctx, player.playerId, row.id) : undefined,
  ]);
  return {
    ...toGame(ctx, row, favorite),
    screenshots: (JSON.parse(row.screenshots) as string[]).map((file) => mediaUrl(ctx.config, file)),
    rating,
    ...(mine === undefined ? {} : { my_rating: mine }),
  };
}

/**
 * GET /games/{slug}/related: other listed games, those of the same category first, then those sharing the most tags,
 * then the most played (docs/api.md, "More like this"); never the game itself.
 */
export async function relatedGames(ctx: AppContext, slug: string, limit: number): Promise<Game[]> {
  const row = await findListedGame(ctx.db, slug);
  if (!row) throw notFound(`No game ${slug}`);
  const rows = await findRelatedGames(ctx.db, row, limit);
  return rows.map((related) => toGame(ctx, related));
}

/** POST /games/{slug}/favorite: a player's toggles run one at a time, so two quick clicks end where they started. */
export async function toggleFavorite(
  ctx: AppContext,
  slug: string,
  player: PlayerCredential,
): Promise<{ is_favorite: boolean }> {
  const row = await findListedGame(ctx.db, slug);
  if (!row) throw notFound(`No game ${slug}`);
  return ctx.db.transaction().execute(async (trx) => {
    await lockPlayer(trx, player.playerId);
    if (await deleteFavorite(trx, player.playerId, row.id)) return { is_favorite: false };
    await insertFavorite(trx, player.playerId, row.id, ctx.clock.now());
    return { is_favorite: true };
  });
}
