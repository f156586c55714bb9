// Factories that write straight to the database, so each test makes exactly what it needs.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../src/context.js';
import type { NewGame } from '../../src/db/schema.js';
import type { PlayerCredential, Scope } from '../../src/http/auth.js';
import { newSecret, secretPrefix, sha256 } from '../../src/lib/secrets.js';
import { hashPassword } from '../../src/modules/accounts/password.js';
import { insertToken } from '../../src/modules/accounts/tokens.repository.js';
import { publishGame } from '../../src/modules/games/publish.service.js';
import { searchTextOf } from '../../src/modules/games/search.js';
import { tempDir } from './temp.js';

let sequence = 0;
const next = () => `${process.pid}${++sequence}`;

export interface PlayerOptions {
  email?: string;
  username?: string;
  display_name?: string;
  role?: string;
  status?: string;
  membership_plan?: string;
  membership_status?: string;
  membership_ends_at?: number | null;
  /** an argon2 hash; factories do not hash (that is the accounts service's job) */
  password_hash?: string;
}

export async function createPlayer(ctx: AppContext, options: PlayerOptions = {}) {
  const n = next();
  const username = options.username ?? `player_${n}`;
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('players')
    .values({
      email: options.email ?? `${username.toLowerCase()}@example.com`,
      username,
      username_key: username.toLowerCase(),
      display_name: options.display_name ?? `Player ${n}`,
      password_hash: options.password_hash ?? 'not-a-hash',
      role: options.role ?? 'player',
      status: options.status ?? 'active',
      membership_plan: options.membership_plan ?? 'free',
      membership_status: options.membership_status ?? 'none',
      membership_ends_at: options.membership_ends_at ?? null,
      bio: null,
      country: null,
      avatar_key: null,
      membership_renews_at: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // an account: its email and password hash are set (only a guest's are null)
  return row as typeof row & { email: string; password_hash: string };
}

/** A player who can log in with `password` (argon2id, like a registered one). */
export async function createPlayerWithPassword(ctx: AppContext, password: string, options: PlayerOptions = {}) {
  return createPlayer(ctx, { ...options, password_hash: await hashPassword(password) });
}

export interface TokenOptions {
  /** lifetime from now, seconds (default 90 days) */
  ttlSeconds?: number;
  revoked?: boolean;
  name?: string;
}

/** A player token; returns the secret and its id. */
export async function createToken(ctx: AppContext, playerId: number, options: TokenOptions = {}) {
  const token = newSecret('agp_');
  const now = ctx.clock.now();
  const id = await insertToken(ctx.db, {
    player_id: playerId,
    name: options.name ?? 'test',
    token_hash: sha256(token),
    prefix: secretPrefix(token),
    created_at: now,
    expires_at: now + (options.ttlSeconds ?? 90 * 86400) * 1000,
  });
  if (options.revoked)
    await ctx.db.updateTable('player_tokens').set({ revoked_at: now }).where('id', '=', id).execute();
  return { token, id };
}

/** A player with a token: the common case. */
export async function createPlayerWithToken(ctx: AppContext, options: PlayerOptions = {}) {
  const player = await createPlayer(ctx, options);
  const { token, id } = await createToken(ctx, player.id);
  return { player, token, tokenId: id };
}

/** A game row without files (see publishFixture for a game with files). */
export async function createGame(ctx: AppContext, overrides: Partial<NewGame> = {}) {
  const n = next();
  const now = ctx.clock.now();
  const name = overrides.name ?? `Game ${n}`;
  const search = {
    name,
    tagline: overrides.tagline ?? null,
    description: overrides.description ?? null,
    tags: JSON.parse(overrides.tags ?? '[]'),
    author: overrides.author ?? 'Test Studio',
  };
  return ctx.db
    .insertInto('games')
    .values({
      search_text: searchTextOf(search),
      slug: `game-${n}`,
      name,
      tagline: null,
      description: null,
      category: 'arcade',
      tags: '[]',
      version: '1.0.0',
      orientation: 'any',
      players_min: 1,
      players_max: 1,
      leaderboard_enabled: 1,
      leaderboard_order: 'desc',
      leaderboard_unit: 'points',
      save_slots: 3,
      requires_premium: 0,
      status: 'published',
      author: 'Test Studio',
      released_at: '2026-01-01',
      cover: 'cover.png',
      entry: 'index.html',
      files_dir: `game-${n}-v1`,
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A developer key for a game; returns the secret and its id. */
export async function createKey(ctx: AppContext, gameId: number, scopes: Scope[], options: { revoked?: boolean } = {}) {
  const key = newSecret('agk_');
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('developer_keys')
    .values({
      game_id: gameId,
      name: 'test key',
      key_hash: sha256(key),
      prefix: secretPrefix(key),
      scopes: scopes.join(' '),
      created_at: now,
      revoked_at: options.revoked ? now : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { key, id: row.id };
}

export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../fixtures/games');

export interface FixtureOptions {
  /** game.json fields over the fixture's; a field set to undefined is removed. Default slug: `<fixture>-<n>`, unique. */
  manifest?: Record<string, unknown>;
  /** files added to (or replaced in) the copy: relative path → content */
  files?: Record<string, string | Buffer>;
}

/** A temporary copy of test/fixtures/games/<fixture>, changed as asked; returns its directory. */
export function fixtureCopy(fixture = 'orbit-dash', options: FixtureOptions = {}): string {
  const dir = tempDir('gp-fixture-');
  cpSync(path.join(FIXTURES_DIR, fixture), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(dir, 'game.json'), 'utf8')) as Record<string, unknown>;
  manifest.slug = `${fixture}-${next()}`;
  for (const [key, value] of Object.entries(options.manifest ?? {})) {
    if (value === undefined) delete manifest[key];
    else manifest[key] = value;
  }
  writeFileSync(path.join(dir, 'game.json'), JSON.stringify(manifest, null, 2));
  for (const [file, content] of Object.entries(options.files ?? {})) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** Publishes a fixture through the real publish service; returns the publish result, the games row and the source directory. */
export async function publishFixture(ctx: AppContext, fixture = 'orbit-dash', options: FixtureOptions = {}) {
  const dir = fixtureCopy(fixture, options);
  const result = await publishGame(ctx, dir);
  const game = await ctx.db.selectFrom('games').selectAll().where('slug', '=', result.slug).executeTakeFirstOrThrow();
  return { ...result, game, dir };
}

export interface PlaySessionOptions {
  status?: 'active' | 'closed';
  /** when the shell was last heard from (default: now) */
  lastHeartbeatAt?: number;
}

/** A play session of a player for a game (closed unless told otherwise): makes the player "a player of the game". */
export async function createPlaySession(
  ctx: AppContext,
  playerId: number,
  gameId: number,
  options: PlaySessionOptions = {},
) {
  const now = ctx.clock.now();
  const token = newSecret('ps_');
  const status = options.status ?? 'closed';
  const row = await ctx.db
    .insertInto('play_sessions')
    .values({
      token_hash: sha256(token),
      player_id: playerId,
      game_id: gameId,
      status,
      started_at: now,
      last_heartbeat_at: options.lastHeartbeatAt ?? now,
      credited_until: now,
      ended_at: status === 'closed' ? now : null,
      end_reason: status === 'closed' ? 'quit' : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/** A free player's credential, as the auth hook builds it, for calling a service directly. */
export function asPlayer(playerId: number): PlayerCredential {
  const membership = {
    role: 'player',
    membership_plan: 'free',
    membership_status: 'none',
    membership_renews_at: null,
    membership_ends_at: null,
  };
  return { kind: 'player', playerId, tokenId: 0, role: 'player', membership, via: 'bearer' };
}
