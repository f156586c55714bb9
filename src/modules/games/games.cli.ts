// gameplatform games publish|list|previews|set-status and keys create|list|revoke (docs/operations.md, "Command line").
import path from 'node:path';
import type { Command } from 'commander';
import semver from 'semver';
import type { AppContext } from '../../context.js';
import { SCOPES } from '../../http/auth.js';
import { listAllGames, setGameStatus } from './admin.service.js';
import { compressGameFiles, type CompressedSet } from './compress.service.js';
import { createDeveloperKey, listDeveloperKeys, revokeDeveloperKey } from './keys.service.js';
import { GAME_STATUSES } from './manifest.js';
import { publishGame, type PublishResult } from './publish.service.js';
import { renderMissingPreviews } from '../portal/share-images.js';

type WithContext = <T>(fn: (ctx: AppContext) => Promise<T>, options?: { readOnly?: boolean }) => Promise<T>;

/** `--json`: the rows as one JSON array, for scripts. */
export function printJson(rows: unknown[]): void {
  console.log(JSON.stringify(rows, null, 2));
}

/** Rows as aligned columns, for people. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function size(bytes: number): string {
  return bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function describePublish(r: PublishResult): string[] {
  const what = r.created
    ? `published new game ${r.slug} ${r.version}`
    : `updated ${r.slug} ${r.previous_version} -> ${r.version}`;
  const lines = [
    `${what} (status ${r.status}): ${r.files} files, ${size(r.bytes)}, ${r.copies} compressed copies, file set ${r.files_dir}`,
  ];
  if (r.removed.length) lines.push(`removed older file sets: ${r.removed.join(', ')}`);
  if (r.kept.length)
    lines.push(
      `kept older file sets while play sessions of the game are active (a later publish removes them): ${r.kept.join(', ')}`,
    );
  return lines;
}

function describeCompressed(s: CompressedSet): string {
  const where = `${s.slug} (file set ${s.set})`;
  if (s.done_before) return `${where}: has its copies already`;
  const decoded = s.decoded ? `, ${s.decoded} files decoded from their compressed upload` : '';
  const bad = s.unreadable.length ? `; cannot decode: ${s.unreadable.join('; ')}` : '';
  return `${where}: ${s.copies} compressed copies stored${decoded}${bad}`;
}

function registerGames(program: Command, withContext: WithContext): void {
  const games = program.command('games').description('the game catalogue');

  games
    .command('publish')
    .argument('<dir>', 'directory holding game.json and the game files')
    .description('check <dir>/game.json and the files, and publish them (a new game, or a new version of one in place)')
    .action(async (dir: string) => {
      const result = await withContext((ctx) => publishGame(ctx, path.resolve(dir)));
      console.log(describePublish(result).join('\n'));
      if (
        result.previous_version &&
        semver.valid(result.previous_version) &&
        !semver.gt(result.version, result.previous_version)
      ) {
        console.error(`note: version ${result.version} is not newer than the previous ${result.previous_version}`);
      }
    });

  games
    .command('compress')
    .argument('[slug]', 'only this game (default: every game)')
    .option('--force', 'also the file sets that have their copies already')
    .description(
      'store brotli and gzip copies beside the files of published file sets that lack them (sets published before copies were made at publish)',
    )
    .action(async (slug: string | undefined, options: { force?: boolean }) => {
      const sets = await withContext((ctx) =>
        compressGameFiles(ctx, { slug, force: options.force }, (set) => console.log(describeCompressed(set))),
      );
      const copies = sets.reduce((n, s) => n + s.copies, 0);
      console.log(`${sets.length} file sets, ${copies} compressed copies stored`);
      if (sets.some((s) => s.unreadable.length)) process.exitCode = 1;
    });

  games
    .command('previews')
    .description(
      'render the link-preview PNG (1200×630, from the cover) of every published and beta game that lacks one (pages render a missing one on its first request)',
    )
    .action(async () => {
      const { rendered, failed } = await withContext((ctx) => renderMissingPreviews(ctx));
      console.log(`${rendered} previews in the store`);
      if (failed.length) {
        console.log(`covers that could not be read (their pages show the site's share image): ${failed.join(', ')}`);
        process.exitCode = 1;
      }
    });

  games
    .command('list')
    .description('every game, whatever its status')
    .option('--json', 'print the games as a JSON array')
    .action(async (options: { json?: boolean }) => {
      const rows = await withContext(listAllGames, { readOnly: true });
      if (options.json) return printJson(rows.map(({ studio_id: _, featured_at: __, ...row }) => row));
      if (rows.length === 0) return console.log('no games yet: gameplatform games publish <dir>');
      console.log(
        table(
          ['SLUG', 'STATUS', 'VERSION', 'CATEGORY', 'PLAYS', 'NAME'],
          rows.map((g) => [g.slug, g.status, g.version, g.category, String(g.plays), g.name]),
        ),
      );
    });

  games
    .command('set-status')
    .argument('<slug>')
    .argument('<status>', GAME_STATUSES.join(' | '))
    .description("change a game's status; only published and beta games are visible to players")
    .action(async (slug: string, status: string) => {
      const result = await withContext((ctx) => setGameStatus(ctx, slug, status));
      console.log(`${result.slug}: ${result.from} -> ${result.to}`);
    });
}

function registerKeys(program: Command, withContext: WithContext): void {
  const keys = program.command('keys').description("developer keys for games' backends");

  keys
    .command('create')
    .requiredOption('--game <slug>', 'the game the key acts for')
    .requiredOption('--scopes <a,b>', `comma-separated: ${SCOPES.join(', ')}`)
    .option('--name <name>', 'what the key is for (default "<slug> key")')
    .description('create a developer key and print it once (only its SHA-256 is stored)')
    .action(async (options: { game: string; scopes: string; name?: string }) => {
      const key = await withContext((ctx) => createDeveloperKey(ctx, options));
      console.log(`created developer key ${key.id} "${key.name}" for ${key.game}, scopes ${key.scopes.join(', ')}`);
      console.log(key.key);
      console.error('Store the key now: it is not shown again.');
    });

  keys
    .command('list')
    .option('--game <slug>', 'only the keys of this game')
    .description('the keys (their prefix only), revoked ones included')
    .option('--json', 'print the keys as a JSON array')
    .action(async (options: { game?: string; json?: boolean }) => {
      const rows = await withContext((ctx) => listDeveloperKeys(ctx, options.game), { readOnly: true });
      if (options.json) return printJson(rows);
      if (rows.length === 0) return console.log('no developer keys');
      console.log(
        table(
          ['ID', 'GAME', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED'],
          rows.map((k) => [
            String(k.id),
            k.game,
            k.name,
            k.prefix,
            k.scopes.join(','),
            k.created_at,
            k.last_used_at ?? '-',
            k.revoked_at ?? '-',
          ]),
        ),
      );
    });

  keys
    .command('revoke')
    .argument('<id>', 'the key id (keys list)')
    .description('revoke a key: requests with it get 401 from now on')
    .action(async (id: string) => {
      const n = /^\d+$/.test(id) ? Number(id) : NaN;
      const result = await withContext((ctx) => revokeDeveloperKey(ctx, n));
      console.log(result.revoked ? `revoked developer key ${n}` : `developer key ${n} was already revoked`);
    });
}

export function registerGameCommands(program: Command, withContext: WithContext): void {
  registerGames(program, withContext);
  registerKeys(program, withContext);
}
