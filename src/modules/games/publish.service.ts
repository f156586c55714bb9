// `games publish <dir>`: check game.json and the files, copy them to a new file set, then switch the game to it in one UPDATE.
import { randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, readFile, realpath, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import { AppError, validationFailed } from '../../http/errors.js';
import { isServablePath, isServableSegment, isSetName, newSetName, SET_MARKER, slugDirectory } from './files.js';
import { gamesUrlOf } from './game-origin.js';
import { insertGameIfAbsent, lockGameBySlug, updatePublishedGame, type PublishedRow, type PublishValues } from './games.repository.js';
import { parseManifest, type GameManifest } from './manifest.js';
import { searchTextOf } from './search.js';

export const MANIFEST_FILE = 'game.json';
export const PUBLISH_LIMITS = { files: 5000, bytes: 1024 * 1024 * 1024 } as const;
/** Staging and trash directories left by a publish that crashed are removed by a later publish after this long. */
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
  /** file sets deleted because they were neither the new one nor the one it replaced */
  removed: string[];
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
      else if (!isServableSegment(entry.name)) problems.push(`${file}: a name must not contain \\ ? # % or control characters`);
      else if (!relative && entry.name.startsWith(SET_MARKER)) problems.push(`${file}: top-level names starting with ${SET_MARKER} are reserved`);
      else if (entry.isDirectory()) await walk(file);
      else if (!entry.isFile()) problems.push(`${file} is not a regular file`);
      else {
        found.files.push(file);
        found.bytes += (await lstat(path.join(dir, file))).size;
      }
    }
  };
  await walk('');
  if (found.files.length > PUBLISH_LIMITS.files) problems.push(`more than ${PUBLISH_LIMITS.files} files`);
  if (found.bytes > PUBLISH_LIMITS.bytes) problems.push(`more than ${PUBLISH_LIMITS.bytes} bytes in all`);
  if (problems.length) found.problem = problems.length > 1 ? `${problems[0]} (and ${problems.length - 1} more problems)` : problems[0];
  return found;
}

async function readManifest(dir: string): Promise<unknown> {
  const file = path.join(dir, MANIFEST_FILE);
  const stat = await lstat(file).catch(() => null);
  if (!stat) throw validationFailed({ [MANIFEST_FILE]: `not found in ${dir}` }, `${MANIFEST_FILE} is missing`);
  if (!stat.isFile()) throw validationFailed({ [MANIFEST_FILE]: 'must be a regular file, not a link or a directory' }, `${MANIFEST_FILE} is not valid`);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw validationFailed({ [MANIFEST_FILE]: `is not valid JSON: ${(error as Error).message}` }, `${MANIFEST_FILE} is not valid`);
  }
}

/** Reads and checks a game directory; every problem is reported at once (422 validation_failed, `fields`). */
export async function checkGameDirectory(sourceDir: string): Promise<{ dir: string; manifest: GameManifest; files: GameFiles }> {
  const dir = await realpath(sourceDir).catch(() => null);
  if (!dir || !(await lstat(dir)).isDirectory()) throw validationFailed({ dir: `${sourceDir} is not a directory` }, 'Nothing to publish');
  const raw = await readManifest(dir);
  const files = await listGameFiles(dir);
  try {
    const manifest = parseManifest(raw, new Set(files.files));
    if (files.problem) throw validationFailed({ files: files.problem }, `${MANIFEST_FILE} is not valid`);
    return { dir, manifest, files };
  } catch (error) {
    if (files.problem && error instanceof AppError && error.code === 'validation_failed') {
      throw validationFailed({ ...(error.extra.fields as Record<string, string>), files: files.problem }, error.message);
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

async function copyFiles(from: string, to: string, files: string[]): Promise<void> {
  for (const file of files) {
    const target = path.join(to, file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(from, file), target);
  }
}

const scratchName = (kind: 'staging' | 'trash', now: number) => `.${kind}-${now.toString(36)}-${randomBytes(4).toString('hex')}`;

/**
 * Inside the transaction, with the game's row locked: the new set gets its final name, the row switches to it,
 * and every other set but the one it replaced moves to trash. Sets are only ever named under this lock,
 * so a concurrent publish of the same slug can never lose its set to this cleanup.
 */
interface Moves {
  /** the new set's final path, once renamed */
  set?: string;
  trash: Array<{ from: string; to: string }>;
}

async function switchFileSet(ctx: AppContext, slugDir: string, staging: string, manifest: GameManifest, moves: Moves) {
  const now = ctx.clock.now();
  const set = newSetName(now);
  return ctx.db.transaction().execute(async (trx) => {
    let previous: PublishedRow | undefined = await lockGameBySlug(trx, manifest.slug);
    const values = columnsOf(manifest, set, now);
    let id = previous ? undefined : await insertGameIfAbsent(trx, values, now);
    if (!previous && id === undefined) previous = await lockGameBySlug(trx, manifest.slug);
    if (previous) {
      id = previous.id;
      await updatePublishedGame(trx, id, values, previous);
    }
    await rename(staging, path.join(slugDir, set));
    moves.set = path.join(slugDir, set);
    for (const entry of await readdir(slugDir)) {
      if (!isSetName(entry) || entry === set || entry === previous?.files_dir) continue;
      const move = { from: path.join(slugDir, entry), to: path.join(slugDir, scratchName('trash', now)) };
      await rename(move.from, move.to);
      moves.trash.push(move);
    }
    return { set, previous, status: manifest.status ?? previous?.status ?? 'published' };
  });
}

/** Removes trash, and staging left behind by crashed publishes (named with their time). */
async function sweepScratch(ctx: AppContext, slugDir: string): Promise<void> {
  const now = ctx.clock.now();
  for (const entry of await readdir(slugDir)) {
    const match = /^\.(?:staging|trash)-([0-9a-z]+)-/.exec(entry);
    if (match && now - parseInt(match[1]!, 36) > STALE_MS) await rm(path.join(slugDir, entry), { recursive: true, force: true });
  }
}

/** Publishes the game in `sourceDir`: a new slug is created, an existing one updated in place (same id, favourites, stats). */
export async function publishGame(ctx: AppContext, sourceDir: string): Promise<PublishResult> {
  const { dir, manifest, files } = await checkGameDirectory(sourceDir);
  if (manifest.slug.length > MAX_HOST_LABEL && gamesUrlOf(ctx.config).layout === 'host') {
    throw validationFailed({ slug: `must be at most ${MAX_HOST_LABEL} characters: games_url puts it in a host name` }, `${MANIFEST_FILE} is not valid`);
  }
  const slugDir = slugDirectory(ctx.config, manifest.slug);
  await mkdir(slugDir, { recursive: true });
  const staging = path.join(slugDir, scratchName('staging', ctx.clock.now()));
  const moves: Moves = { trash: [] };
  let switched: Awaited<ReturnType<typeof switchFileSet>>;
  try {
    await copyFiles(dir, staging, files.files);
    switched = await switchFileSet(ctx, slugDir, staging, manifest, moves);
  } catch (error) {
    // The transaction rolled back: put back the sets moved to trash, drop the copy.
    for (const move of moves.trash) await rename(move.to, move.from).catch(() => undefined);
    for (const copy of [staging, moves.set]) if (copy) await rm(copy, { recursive: true, force: true });
    throw error;
  }
  const removed: string[] = [];
  for (const move of moves.trash) {
    await rm(move.to, { recursive: true, force: true });
    removed.push(path.basename(move.from));
  }
  await sweepScratch(ctx, slugDir);
  return {
    slug: manifest.slug,
    name: manifest.name,
    version: manifest.version,
    status: switched.status,
    created: !switched.previous,
    previous_version: switched.previous?.version ?? null,
    files_dir: switched.set,
    files: files.files.length,
    bytes: files.bytes,
    removed,
  };
}
