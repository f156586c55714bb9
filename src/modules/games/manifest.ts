// game.json: every Game field that is not computed, plus `entry`; checked with one message per field.
import path from 'node:path';
import semver from 'semver';
import { validationFailed } from '../../http/errors.js';
import { isServablePath } from './files.js';

export const GAME_STATUSES = ['draft', 'beta', 'published', 'retired'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];
/** The statuses clients can see (docs/api.md, "Catalogue decisions"); every other one answers 404. */
export const LISTED_STATUSES: readonly GameStatus[] = ['published', 'beta'];

/** Whether clients see a game of this status (published and beta; anything else is 404 for them). */
export function isListed(status: string): boolean {
  return (LISTED_STATUSES as readonly string[]).includes(status);
}
export const ORIENTATIONS = ['any', 'portrait', 'landscape'] as const;
export const LEADERBOARD_ORDERS = ['asc', 'desc'] as const;

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const CATEGORY_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
export const LIMITS = {
  name: 80,
  tagline: 140,
  description: 4000,
  author: 80,
  tags: 20,
  tag: 32,
  unit: 24,
  version: 64,
  players: 100,
  save_slots: 20,
} as const;
const COVER_TYPES = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.svg'];
const ENTRY_TYPES = ['.html', '.htm'];

export interface GameManifest {
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  category: string;
  tags: string[];
  version: string;
  orientation: (typeof ORIENTATIONS)[number];
  players: { min: number; max: number };
  leaderboard: {
    enabled: boolean;
    order: (typeof LEADERBOARD_ORDERS)[number];
    unit: string;
    /** the lowest and highest score a submission may carry; null: no bound */
    min: number | null;
    max: number | null;
  };
  save_slots: number;
  requires_premium: boolean;
  /** absent: `published` on the first publish, unchanged on a republish */
  status: GameStatus | undefined;
  author: string;
  released_at: string;
  cover: string;
  entry: string;
  /** COOP/COEP on the shell and the game's files, so that the frame is cross-origin isolated (threads) */
  cross_origin_isolated: boolean;
}

const KNOWN_FIELDS = new Set([
  'slug',
  'name',
  'tagline',
  'description',
  'category',
  'tags',
  'version',
  'orientation',
  'players',
  'leaderboard',
  'save_slots',
  'requires_premium',
  'status',
  'author',
  'released_at',
  'cover',
  'entry',
  'cross_origin_isolated',
]);

type Problems = Record<string, string>;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
// Control characters other than tab and newline (those are allowed only in a description).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const LINE_BREAK = /[\t\n\r]/;

/** A required or optional string field, trimmed; returns undefined (and records why) when it is not acceptable. */
function text(
  p: Problems,
  field: string,
  value: unknown,
  max: number,
  options: { required?: boolean; multiline?: boolean } = {},
): string | null | undefined {
  if (value === undefined || value === null) {
    if (options.required) p[field] = 'is required';
    return null;
  }
  if (typeof value !== 'string') return void (p[field] = 'must be a string');
  const trimmed = value.replace(/\r\n?/g, '\n').trim();
  if (options.required && trimmed.length === 0) return void (p[field] = 'must not be empty');
  if ([...trimmed].length > max) return void (p[field] = `must be at most ${max} characters`);
  if (CONTROL.test(trimmed) || (!options.multiline && LINE_BREAK.test(trimmed)))
    return void (p[field] = 'must not contain control characters or line breaks');
  return trimmed.length === 0 ? null : trimmed;
}

function oneOf<T extends string>(
  p: Problems,
  field: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T | undefined,
): T | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T))
    return void (p[field] = `must be one of ${allowed.join(', ')}`);
  return value as T;
}

function integer(p: Problems, field: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) return (void (p[field] = 'must be an integer'), fallback);
  if (value < min || value > max) return (void (p[field] = `must be from ${min} to ${max}`), fallback);
  return value;
}

function boolean(p: Problems, field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') return (void (p[field] = 'must be true or false'), fallback);
  return value;
}

function slugOf(p: Problems, m: Json): string {
  const slug = m.slug;
  if (slug === undefined) return (void (p.slug = 'is required'), '');
  if (typeof slug !== 'string' || !SLUG_PATTERN.test(slug)) {
    p.slug = 'must be 1 to 64 lower-case letters, digits and hyphens, starting and ending with a letter or digit';
    return '';
  }
  return slug;
}

function categoryOf(p: Problems, m: Json): string {
  const category = m.category;
  if (category === undefined) return (void (p.category = 'is required'), '');
  if (typeof category !== 'string' || !CATEGORY_PATTERN.test(category)) {
    p.category = 'must be 1 to 32 lower-case letters, digits and hyphens, starting and ending with a letter or digit';
    return '';
  }
  return category;
}

function tagsOf(p: Problems, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return (void (p.tags = 'must be an array of strings'), []);
  if (value.length > LIMITS.tags) return (void (p.tags = `must hold at most ${LIMITS.tags} tags`), []);
  const seen = new Set<string>();
  const tags: string[] = [];
  value.forEach((tag, i) => {
    const trimmed = typeof tag === 'string' ? tag.trim() : '';
    if (trimmed.length === 0 || [...trimmed].length > LIMITS.tag || CONTROL.test(trimmed) || LINE_BREAK.test(trimmed)) {
      p[`tags[${i}]`] ??= `must be a non-empty string of at most ${LIMITS.tag} characters`;
    } else if (seen.has(trimmed.toLowerCase())) {
      p[`tags[${i}]`] ??= `repeats "${trimmed}"`;
    } else {
      seen.add(trimmed.toLowerCase());
      tags.push(trimmed);
    }
  });
  return tags;
}

function versionOf(p: Problems, value: unknown): string {
  if (value === undefined) return (void (p.version = 'is required'), '');
  // semver.valid also accepts "v1.2.3" and "=1.2.3"; the stored version is the plain form.
  const valid =
    typeof value === 'string' &&
    value.length <= LIMITS.version &&
    /^\d[^\s]*$/.test(value) &&
    semver.valid(value) !== null;
  if (!valid) return (void (p.version = 'must be a semantic version such as 1.4.0 or 2.0.0-beta.1'), '');
  return value;
}

function playersOf(p: Problems, value: unknown): GameManifest['players'] {
  if (value === undefined) return { min: 1, max: 1 };
  if (!isObject(value)) return (void (p.players = 'must be an object {min, max}'), { min: 1, max: 1 });
  for (const key of Object.keys(value))
    if (key !== 'min' && key !== 'max') p[`players.${key}`] = 'is not a known field';
  const min = integer(p, 'players.min', value.min, 1, 1, LIMITS.players);
  const max = integer(p, 'players.max', value.max, min, 1, LIMITS.players);
  if (!p['players.min'] && !p['players.max'] && min > max) p['players.max'] = 'must be at least players.min';
  return { min, max };
}

/** `leaderboard.min` / `max`: an optional safe integer. */
function bound(p: Problems, field: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    return (void (p[field] = 'must be an integer (a safe one: |n| ≤ 2^53 − 1)'), null);
  return value;
}

function leaderboardOf(p: Problems, value: unknown): GameManifest['leaderboard'] {
  const fallback = { enabled: false, order: 'desc', unit: 'points', min: null, max: null } as const;
  if (value === undefined) return { ...fallback };
  if (!isObject(value))
    return (void (p.leaderboard = 'must be an object {enabled, order, unit, min, max}'), { ...fallback });
  for (const key of Object.keys(value))
    if (!['enabled', 'order', 'unit', 'min', 'max'].includes(key)) p[`leaderboard.${key}`] = 'is not a known field';
  const enabled = boolean(p, 'leaderboard.enabled', value.enabled, false);
  const order = oneOf(p, 'leaderboard.order', value.order, LEADERBOARD_ORDERS, 'desc') ?? 'desc';
  const unit =
    value.unit === undefined ? 'points' : text(p, 'leaderboard.unit', value.unit, LIMITS.unit, { required: true });
  const min = bound(p, 'leaderboard.min', value.min);
  const max = bound(p, 'leaderboard.max', value.max);
  if (min !== null && max !== null && min > max) p['leaderboard.max'] = 'must be at least leaderboard.min';
  return { enabled, order, unit: unit ?? 'points', min, max };
}

function releasedAtOf(p: Problems, value: unknown): string {
  if (value === undefined) return (void (p.released_at = 'is required'), '');
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!match || !date || date.toISOString().slice(0, 10) !== value)
    return (void (p.released_at = 'must be a real date YYYY-MM-DD'), '');
  return value as string;
}

/** cover and entry: a path among the game's files, of the right kind. */
function fileOf(
  p: Problems,
  field: string,
  value: unknown,
  fallback: string | undefined,
  types: string[],
  files: ReadonlySet<string>,
): string {
  if (value === undefined && fallback === undefined) return (void (p[field] = 'is required'), '');
  const file = value === undefined ? fallback! : value;
  if (typeof file !== 'string' || !isServablePath(file)) {
    return (
      void (p[field] =
        'must be a relative path inside the game directory, with / between folders and no ".", ".." or hidden names'),
      ''
    );
  }
  if (!types.includes(path.posix.extname(file).toLowerCase()))
    return (void (p[field] = `must be a ${types.join(', ')} file`), '');
  if (!files.has(file)) return (void (p[field] = `names ${file}, which is not among the game's files`), '');
  return file;
}

/**
 * Checks a parsed game.json against the files found beside it (relative `/` paths).
 * Throws 422 validation_failed with `fields` naming every problem.
 */
export function parseManifest(raw: unknown, files: ReadonlySet<string>): GameManifest {
  if (!isObject(raw)) throw validationFailed({ 'game.json': 'must hold a JSON object' }, 'game.json is not valid');
  const p: Problems = {};
  for (const key of Object.keys(raw)) if (!KNOWN_FIELDS.has(key)) p[key] = 'is not a known field';
  const manifest: GameManifest = {
    slug: slugOf(p, raw),
    name: text(p, 'name', raw.name, LIMITS.name, { required: true }) ?? '',
    tagline: text(p, 'tagline', raw.tagline, LIMITS.tagline) ?? null,
    description: text(p, 'description', raw.description, LIMITS.description, { multiline: true }) ?? null,
    category: categoryOf(p, raw),
    tags: tagsOf(p, raw.tags),
    version: versionOf(p, raw.version),
    orientation: oneOf(p, 'orientation', raw.orientation, ORIENTATIONS, 'any') ?? 'any',
    players: playersOf(p, raw.players),
    leaderboard: leaderboardOf(p, raw.leaderboard),
    save_slots: integer(p, 'save_slots', raw.save_slots, 0, 0, LIMITS.save_slots),
    requires_premium: boolean(p, 'requires_premium', raw.requires_premium, false),
    status: oneOf(p, 'status', raw.status, GAME_STATUSES, undefined),
    author: text(p, 'author', raw.author, LIMITS.author, { required: true }) ?? '',
    released_at: releasedAtOf(p, raw.released_at),
    cover: fileOf(p, 'cover', raw.cover, undefined, COVER_TYPES, files),
    entry: fileOf(p, 'entry', raw.entry, 'index.html', ENTRY_TYPES, files),
    cross_origin_isolated: boolean(p, 'cross_origin_isolated', raw.cross_origin_isolated, false),
  };
  if (Object.keys(p).length > 0) throw validationFailed(p, 'game.json is not valid');
  return manifest;
}

/** The listing fields a studio edits through the API (PATCH /studio/games/{slug}), checked by game.json's rules. */
export type ListingPatch = Partial<
  Pick<GameManifest, 'name' | 'tagline' | 'description' | 'category' | 'tags' | 'orientation' | 'requires_premium'>
>;

const LISTING_FIELDS = new Set([
  'name',
  'tagline',
  'description',
  'category',
  'tags',
  'orientation',
  'requires_premium',
]);

/** Checks the fields present in `raw` as game.json checks them (same messages); absent fields stay absent. */
export function parseListingPatch(raw: Json): ListingPatch {
  const p: Problems = {};
  for (const key of Object.keys(raw)) if (!LISTING_FIELDS.has(key)) p[key] = 'is not a listing field';
  const patch: ListingPatch = {};
  if ('name' in raw) patch.name = text(p, 'name', raw.name, LIMITS.name, { required: true }) ?? '';
  if ('tagline' in raw) patch.tagline = text(p, 'tagline', raw.tagline, LIMITS.tagline) ?? null;
  if ('description' in raw)
    patch.description = text(p, 'description', raw.description, LIMITS.description, { multiline: true }) ?? null;
  if ('category' in raw) patch.category = categoryOf(p, raw);
  if ('tags' in raw) patch.tags = tagsOf(p, raw.tags ?? []);
  if ('orientation' in raw) patch.orientation = oneOf(p, 'orientation', raw.orientation, ORIENTATIONS, 'any') ?? 'any';
  if ('requires_premium' in raw) patch.requires_premium = boolean(p, 'requires_premium', raw.requires_premium, false);
  if (Object.keys(p).length > 0) throw validationFailed(p, 'The listing is not valid');
  return patch;
}
