// Studios, their members and games for the tests, and a build deployed through the real upload routes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../src/context.js';
import type { NewGame } from '../../src/db/schema.js';
import { createGame, createPlayerWithToken, FIXTURES_DIR, type PlayerOptions } from './factories.js';
import type { Requester, Response } from './request.js';
import { entriesOf, zipOf } from './zips.js';

let sequence = 0;
const next = () => `${process.pid}${++sequence}`;

export async function createStudio(ctx: AppContext, options: { slug?: string; name?: string; status?: string } = {}) {
  const n = next();
  return ctx.db
    .insertInto('studios')
    .values({
      slug: options.slug ?? `studio-${n}`,
      name: options.name ?? `Studio ${n}`,
      status: options.status ?? 'active',
      created_at: ctx.clock.now(),
      approved_at: options.status === 'pending' ? null : ctx.clock.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function addMember(ctx: AppContext, studioId: number, playerId: number, role = 'developer') {
  await ctx.db
    .insertInto('studio_members')
    .values({ studio_id: studioId, player_id: playerId, role, created_at: ctx.clock.now() })
    .execute();
}

/** A player with a token who is a member of the studio. */
export async function memberOf(ctx: AppContext, studioId: number, role = 'developer', options: PlayerOptions = {}) {
  const member = await createPlayerWithToken(ctx, options);
  await addMember(ctx, studioId, member.player.id, role);
  return member;
}

/** A draft game of the studio with no files yet, as POST /studio/studios/{studio}/games makes one. */
export async function createStudioGame(ctx: AppContext, studioId: number, overrides: Partial<NewGame> = {}) {
  return createGame(ctx, {
    slug: `sgame-${next()}`,
    status: 'draft',
    files_dir: '',
    cover: '',
    version: '0.0.0',
    studio_id: studioId,
    ...overrides,
  });
}

/** The files of the orbit-dash fixture with game.json for `slug`, changed as asked. */
export function buildEntries(
  slug: string,
  options: { manifest?: Record<string, unknown>; files?: Record<string, string | Buffer> } = {},
): Record<string, Buffer | string> {
  const dir = path.join(FIXTURES_DIR, 'orbit-dash');
  const files: Record<string, Buffer | string> = entriesOf(dir);
  const manifest = { ...JSON.parse(readFileSync(path.join(dir, 'game.json'), 'utf8')), slug, ...options.manifest };
  delete manifest.status;
  for (const [key, value] of Object.entries(manifest)) if (value === undefined) delete manifest[key];
  files['game.json'] = JSON.stringify(manifest);
  return { ...files, ...options.files };
}

export function buildZip(slug: string, options: Parameters<typeof buildEntries>[1] = {}): Promise<Buffer> {
  return zipOf(buildEntries(slug, options));
}

export interface DeployOptions {
  /** bytes per part (default: the whole zip in one part) */
  partSize?: number;
}

/** Starts an upload, sends the parts and completes it; the completion's answer. */
export async function deploy(
  http: Requester,
  token: string,
  slug: string,
  zip: Buffer,
  options: DeployOptions = {},
): Promise<Response> {
  const started = await http.post(`/v1/studio/games/${slug}/uploads`, { token, body: { size: zip.length } });
  if (started.status !== 201) return started;
  const id = started.body.data.id as string;
  const size = options.partSize ?? zip.length;
  for (let part = 1, at = 0; at < zip.length; part++, at += size) {
    const sent = await http.put(`/v1/studio/games/${slug}/uploads/${id}/parts/${part}`, {
      token,
      body: zip.subarray(at, at + size),
      contentType: 'application/octet-stream',
    });
    if (sent.status !== 200) return sent;
  }
  return http.post(`/v1/studio/games/${slug}/uploads/${id}/complete`, { token });
}

/** Every key in the store under these folders (games/<slug>/…, uploads/…), for "nothing was left" checks. */
export async function storedKeys(ctx: AppContext, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of ctx.storage.list(prefix)) keys.push(object.key);
  return keys;
}
