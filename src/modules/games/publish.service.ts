// `games publish <dir>`: check game.json and the files, upload them to a new file set in the store, then switch the game to it in one write.
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { eachAtOnce } from '../../lib/at-once.js';
import { COPIES_MARKER, storeCopies } from './file-copies.js';
import { contentTypeOf, encodedName } from './file-types.js';
import { isServableSegment, isSetName, MAX_NAME_BYTES, newSetName, SET_MARKER, slugPrefix } from './files.js';
import { gamesUrlOf } from './game-origin.js';
import {
  findGameFileSets,
  hasActiveSession,
  insertGameIfAbsent,
  lockGameBySlug,
  updatePublishedGame,
  type PublishedRow,
  type PublishValues,
} from './games.repository.js';
import { findReadySets } from './builds.repository.js';
import { parseManifest, type GameManifest } from './manifest.js';
import { searchTextOf } from './search.js';
import { forgetStatusCounts } from '../status/status.counts.js';

export const MANIFEST_FILE = 'game.json';
export const PUBLISH_LIMITS = { files: 5000, bytes: 1024 * 1024 * 1024 } as const;
/** A file set left by a publish that crashed is removed by a later publish after this long. */
const STALE_MS = 60 * 60 * 1000;
/** A DNS label: with `{slug}` in games_url's host, a slug is one (a slug may otherwise have 64 characters). */
const MAX_HOST_LABEL = 63;

export interface PublishResult {
  slug: string;
  name: string;
  version: string;
  status: string;
  /** true for a new slug, false when an existing game was updated in place */
  created: boolean;
  previous_version: string | null;
  files_dir: string;
  files: number;
  bytes: number;
  /** compressed copies stored beside the files (file-copies.ts) */
  copies: number;
  /** file sets deleted because they were neither the new one nor the one it replaced */
  removed: string[];
  /** such file sets left in place because a play session of the game is still active (a later publish removes them) */
  kept: string[];
}

interface GameFiles {
  files: string[];
  bytes: number;
  problem?: string;
}

/** Regular files under `dir`, as `/` paths; hidden names are skipped, anything that is not a plain file is a problem. */
async function listGameFiles(dir: string): Promise<GameFiles> {
  const found: GameFiles = { files: [], bytes: 0 };
  const problems: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const file = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && entry.name === MANIFEST_FILE) continue;
      if (entry.isSymbolicLink()) problems.push(`${file} is a symbolic link; publish copies regular files only`);
      else if (Buffer.byteLength(entry.name) > MAX_NAME_BYTES)
        problems.push(
          `${file}: a name may have at most ${MAX_NAME_BYTES} bytes (this one has ${Buffer.byteLength(entry.name)})`,
        );
      else if (!isServableSegment(entry.name))
        problems.push(`${file}: a name must not contain \\ ? # % or control characters`);
      else if (!relative && entry.name.startsWith(SET_MARKER))
        problems.push(`${file}: top-level names starting with ${SET_MARKER} are reserved`);
      else if (entry.isDirectory()) await walk(file);
      else if (!entry.isFile()) problems.push(`${file} is not a regular file`);
      else {
        const stat = await lstat(path.join(dir, file));
        // A hard link is a second name of a file that may live anywhere (a key, the database): refused, wherever
        // its other names are.
        if (stat.nlink > 1)
          problems.push(
            `${file} is a hard link (the file has ${stat.nlink} names); publish copies files that have one name: copy it in (cp) instead`,
          );
        found.files.push(file);
        found.bytes += stat.size;
      }
    }
  };
  await walk('');
  if (found.files.length > PUBLISH_LIMITS.files) problems.push(`more than ${PUBLISH_LIMITS.files} files`);
  if (found.bytes > PUBLISH_LIMITS.bytes) problems.push(`more than ${PUBLISH_LIMITS.bytes} bytes in all`);
  if (problems.length)
    found.problem = problems.length > 1 ? `${problems[0]} (and ${problems.length - 1} more problems)` : problems[0];
  return found;
}

async function readManifest(dir: string): Promise<unknown> {
  const file = path.join(dir, MANIFEST_FILE);
  const stat = await lstat(file).catch(() => null);
  if (!stat) throw validationFailed({ [MANIFEST_FILE]: `not found in ${dir}` }, `${MANIFEST_FILE} is missing`);
  if (!stat.isFile())
    throw validationFailed(
      { [MANIFEST_FILE]: 'must be a regular file, not a link or a directory' },
      `${MANIFEST_FILE} is not valid`,
    );
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw validationFailed(
      { [MANIFEST_FILE]: `is not valid JSON: ${(error as Error).message}` },
      `${MANIFEST_FILE} is not valid`,
    );
  }
}

/** Reads and checks a game directory; every problem is reported at once (422 validation_failed, `fields`). */
export async function checkGameDirectory(
  sourceDir: string,
): Promise<{ dir: string; manifest: GameManifest; files: GameFiles }> {
  const dir = await realpath(sourceDir).catch(() => null);
  if (!dir || !(await lstat(dir)).isDirectory())
    throw validationFailed({ dir: `${sourceDir} is not a directory` }, 'Nothing to publish');
  const raw = await readManifest(dir);
  const files = await listGameFiles(dir);
  try {
    const manifest = parseManifest(raw, new Set(files.files));
    if (files.problem) throw validationFailed({ files: files.problem }, `${MANIFEST_FILE} is not valid`);
    return { dir, manifest, files };
  } catch (error) {
    if (files.problem && error instanceof AppError && error.code === 'validation_failed') {
      throw validationFailed(
        { ...(error.extra.fields as Record<string, string>), files: files.problem },
        error.message,
      );
    }
    throw error;
  }
}

function columnsOf(manifest: GameManifest, filesDir: string, now: number): PublishValues {
  return {
    slug: manifest.slug,
    name: manifest.name,
    tagline: manifest.tagline,
    description: manifest.description,
    category: manifest.category,
    tags: JSON.stringify(manifest.tags),
    version: manifest.version,
    orientation: manifest.orientation,
    players_min: manifest.players.min,
    players_max: manifest.players.max,
    leaderboard_enabled: manifest.leaderboard.enabled ? 1 : 0,
    leaderboard_order: manifest.leaderboard.order,
    leaderboard_unit: manifest.leaderboard.unit,
    leaderboard_min: manifest.leaderboard.min,
    leaderboard_max: manifest.leaderboard.max,
    save_slots: manifest.save_slots,
    requires_premium: manifest.requires_premium ? 1 : 0,
    ...(manifest.status === undefined ? {} : { status: manifest.status }),
    author: manifest.author,
    released_at: manifest.released_at,
    cover: manifest.cover,
    entry: manifest.entry,
    cross_origin_isolated: manifest.cross_origin_isolated ? 1 : 0,
    files_dir: filesDir,
    search_text: searchTextOf(manifest),
    updated_at: now,
  };
}

/**
 * A set being uploaded holds this object until its publish has switched the game to it (or given up): cleanup by a
 * concurrent publish leaves such a set alone, unless the marker is older than STALE_MS (a publish that crashed).
 * A dot name: no URL can ever name it.
 */
export const PUBLISHING_MARKER = '.publishing';
const UPLOADS_AT_ONCE = 8;

/**
 * Uploads the files to the store under `prefix`, a few at a time (an object store answers each request in
 * milliseconds), then stores their compressed copies (file-copies.ts) and marks the set as having them. The one storing step of `games publish` and of studio builds. A compressed
 * file that cannot be decoded is 422: the browser could not decode it either.
 */
export async function uploadFiles(ctx: AppContext, from: string, prefix: string, files: string[]): Promise<number> {
  await eachAtOnce(files, UPLOADS_AT_ONCE, (file) =>
    ctx.storage.put(
      `${prefix}/${file}`,
      { file: path.join(from, file) },
      { contentType: contentTypeOf(encodedName(file)?.inner ?? file) },
    ),
  );
  const copies = await storeCopies(
    ctx.storage,
    prefix,
    { names: files, local: async (file) => path.join(from, file) },
    { maxDecodedBytes: PUBLISH_LIMITS.bytes },
  );
  if (copies.unreadable.length) {
    throw validationFailed(
      { files: copies.unreadable.join('; ') },
      'A compressed file of the game cannot be decoded: upload it again, or the file it was made from',
    );
  }
  await ctx.storage.put(`${prefix}/${COPIES_MARKER}`, Buffer.from('1'));
  return copies.copies;
}

/** Switches the game to `set` in one write, with its row locked (a new slug: one insert, the loser of a race updates). */
async function switchFileSet(ctx: AppContext, manifest: GameManifest, set: string) {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    let previous: PublishedRow | undefined = await lockGameBySlug(trx, manifest.slug);
    const values = columnsOf(manifest, set, now);
    let id = previous ? undefined : await insertGameIfAbsent(trx, values, now);
    if (!previous && id === undefined) previous = await lockGameBySlug(trx, manifest.slug);
    if (previous) {
      id = previous.id;
      await updatePublishedGame(trx, id, values, previous);
    }
    return { previous, status: manifest.status ?? previous?.status ?? 'published' };
  });
}

/** When the set's publish began, from its marker; undefined when it has none (a finished set). */
async function markerTime(ctx: AppContext, prefix: string): Promise<number | undefined> {
  const marker = await ctx.storage.get(`${prefix}/${PUBLISHING_MARKER}`);
  if (!marker) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of marker.body) chunks.push(Buffer.from(chunk as Buffer));
  const time = Number(Buffer.concat(chunks).toString('utf8'));
  return Number.isFinite(time) ? time : 0;
}

/**
 * Removes the file sets the game no longer serves: neither the current one nor the one it replaced nor a build's that
 * is not pruned, not being uploaded by a concurrent publish or build, and only while no play session of the game is
 * active (a page loaded from an old set keeps its files until its session ends; a later publish removes them).
 * Markers are read before the rows: a set whose publish finished after that read is in them.
 */
export async function removeOldSets(ctx: AppContext, slug: string): Promise<{ removed: string[]; kept: string[] }> {
  const now = ctx.clock.now();
  const folder = slugPrefix(slug);
  const candidates: string[] = [];
  for (const set of await ctx.storage.folders(`${folder}/`)) {
    if (!isSetName(set)) continue;
    const started = await markerTime(ctx, `${folder}/${set}`);
    if (started === undefined || now - started > STALE_MS) candidates.push(set);
  }
  const row = await findGameFileSets(ctx.db, slug);
  const builds = new Set(row ? await findReadySets(ctx.db, row.id) : []);
  const old = candidates.filter((set) => set !== row?.files_dir && set !== row?.previous_files_dir && !builds.has(set));
  if (!old.length) return { removed: [], kept: [] };
  if (row && (await hasActiveSession(ctx.db, row.id, now - ctx.config.session_idle_timeout * 1000)))
    return { removed: [], kept: old };
  for (const set of old) await ctx.storage.deletePrefix(`${folder}/${set}/`);
  return { removed: old, kept: [] };
}

/** Publishes the game in `sourceDir`: a new slug is created, an existing one updated in place (same id, favourites, stats). */
export async function publishGame(ctx: AppContext, sourceDir: string): Promise<PublishResult> {
  const { dir, manifest, files } = await checkGameDirectory(sourceDir);
  if (manifest.slug.length > MAX_HOST_LABEL && gamesUrlOf(ctx.config).layout === 'host') {
    throw validationFailed(
      { slug: `must be at most ${MAX_HOST_LABEL} characters: games_url puts it in a host name` },
      `${MANIFEST_FILE} is not valid`,
    );
  }
  // Uploaded first under a new set, then the game switches to it in one write: players never see half a version.
  const set = newSetName(ctx.clock.now());
  const prefix = `${slugPrefix(manifest.slug)}/${set}`;
  let switched: Awaited<ReturnType<typeof switchFileSet>>;
  let copies = 0;
  try {
    await ctx.storage.put(`${prefix}/${PUBLISHING_MARKER}`, Buffer.from(String(ctx.clock.now())));
    copies = await uploadFiles(ctx, dir, prefix, files.files);
    switched = await switchFileSet(ctx, manifest, set);
    forgetStatusCounts(ctx); // GET /status counts the listed games again
  } catch (error) {
    // Nothing names the set: its files go (a crash here leaves them to a later publish, once the marker is stale).
    await ctx.storage
      .deletePrefix(`${prefix}/`)
      .catch((cleanup: unknown) =>
        ctx.log.warn({ err: cleanup, set: prefix }, 'an unpublished file set could not be removed'),
      );
    throw error;
  }
  // The game is published from here on: tidying up that fails is logged, and a later publish finishes it.
  const tidy = async () => {
    await ctx.storage.delete(`${prefix}/${PUBLISHING_MARKER}`);
    return removeOldSets(ctx, manifest.slug);
  };
  const { removed, kept } = await tidy().catch((error: unknown) => {
    ctx.log.warn(
      { err: error, slug: manifest.slug },
      'published; older file sets could not be removed (a later publish removes them)',
    );
    return { removed: [], kept: [] };
  });
  return {
    slug: manifest.slug,
    name: manifest.name,
    version: manifest.version,
    status: switched.status,
    created: !switched.previous,
    previous_version: switched.previous?.version ?? null,
    files_dir: set,
    files: files.files.length,
    bytes: files.bytes,
    copies,
    removed,
    kept,
  };
}
