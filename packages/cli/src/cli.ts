// gameplatform-cli: deploy a game from any machine with the platform's URL and a token (GAMEPLATFORM_TOKEN), list its
// builds, release one, roll back, and manage the game's developer keys.
import { Command, Option } from 'commander';
import { Api, ApiError } from './api.js';
import { archiveOf, UsageError } from './archive.js';
import { type Build, deploy, UploadStopped } from './deploy.js';
import { progress, size, table } from './output.js';

declare const VERSION: string;

const TOKEN_ENV = 'GAMEPLATFORM_TOKEN';
const URL_ENV = 'GAMEPLATFORM_URL';
const MiB = 1024 * 1024;

interface Common {
  url?: string;
  json?: boolean;
}

function apiOf(options: Common): Api {
  const url = options.url ?? process.env[URL_ENV];
  if (!url) throw new UsageError(`say where the platform is: --url https://play.example.com (or ${URL_ENV})`);
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http:// or https:// address, got ${url}`);
  const token = process.env[TOKEN_ENV];
  if (!token)
    throw new UsageError(
      `set ${TOKEN_ENV} to a token: a player token of a member of the game's studio (agp_…), or a developer key of the game with builds:write (agk_…)`,
    );
  return new Api(url, token);
}

const print = (options: Common, json: unknown, text: () => string) =>
  console.log(options.json ? JSON.stringify(json, null, 2) : text());

const describeBuild = (b: Build) =>
  `build ${b.number} (${b.version}): ${b.files} files, ${size(b.bytes)}${b.live ? ', live' : ''}${b.state === 'pruned' ? ', pruned' : ''}`;

function withCommon(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', `the platform's address (default: ${URL_ENV})`))
    .option('--json', 'print the result as JSON, for scripts and CI');
}

function deployCommand(program: Command): void {
  withCommon(program.command('deploy'))
    .argument('<path>', 'the build: a folder holding game.json and index.html (zipped on the way), or a .zip')
    .option('--game <slug>', "the game to deploy to (default: game.json's slug)")
    .option('--release', 'release the build once it is made (players get it at once)')
    .option('--part-size <MiB>', 'size of each uploaded part, in MiB', '8')
    .option('--resume <upload>', 'go on with an upload that stopped (the same zip)')
    .description('upload a build: it gets a number and a preview URL; release it when it is right')
    .action(
      async (
        target: string,
        options: Common & { game?: string; release?: boolean; partSize: string; resume?: string },
      ) => {
        const api = apiOf(options);
        const partSize = Number(options.partSize) * MiB;
        if (!(partSize >= 1024)) throw new UsageError('--part-size must be a number of MiB, at least 0.001');
        const archive = await archiveOf(target);
        const bar = progress(Boolean(options.json));
        try {
          const result = await deploy(api, archive, {
            partSize: Math.floor(partSize),
            onProgress: (sent, total) => bar.update(sent, total),
            ...(options.game ? { game: options.game } : {}),
            ...(options.release ? { release: true } : {}),
            ...(options.resume ? { resume: options.resume } : {}),
          });
          bar.stop();
          const { build } = result;
          print(options, { game: result.game, released: result.released, ...build }, () =>
            [
              `${result.game}: ${describeBuild(build)}${result.released ? ' — released' : ''}`,
              `build number: ${build.number}`,
              `preview: ${build.preview_url}`,
              ...(result.released ? [] : [`release it: gameplatform-cli release ${result.game} ${build.number}`]),
            ].join('\n'),
          );
        } finally {
          bar.stop();
          await archive.dispose();
        }
      },
    );
}

function buildCommands(program: Command): void {
  withCommon(program.command('builds'))
    .argument('<game>', 'the game slug')
    .description("the game's builds, newest first")
    .action(async (game: string, options: Common) => {
      const { builds } = await apiOf(options).call<{ builds: Build[] }>('GET', `/studio/games/${game}/builds`);
      print(options, builds, () =>
        builds.length === 0
          ? `${game} has no builds yet: gameplatform-cli deploy <folder>`
          : table(
              ['BUILD', 'VERSION', 'STATE', 'LIVE', 'SIZE', 'BY', 'UPLOADED'],
              builds.map((b) => [
                String(b.number),
                b.version,
                b.state,
                b.live ? 'live' : '',
                size(b.bytes),
                b.uploaded_by ?? 'key',
                b.created_at,
              ]),
            ),
      );
    });

  withCommon(program.command('release'))
    .argument('<game>', 'the game slug')
    .argument('<build>', 'the build number (an earlier one rolls back to it)')
    .description('release a build: players get it at once')
    .action(async (game: string, number: string, options: Common) => {
      const result = await apiOf(options).call<{ build: Build; previous: number | null; changed: boolean }>(
        'POST',
        `/studio/games/${game}/builds/${encodeURIComponent(number)}/release`,
      );
      print(options, result, () =>
        result.changed
          ? `${game}: ${describeBuild(result.build)} is live (was build ${result.previous ?? 'none'})`
          : `${game}: build ${number} was live already`,
      );
    });

  withCommon(program.command('rollback'))
    .argument('<game>', 'the game slug')
    .description('release the build that was live before the current one')
    .action(async (game: string, options: Common) => {
      const result = await apiOf(options).call<{ build: Build; previous: number | null }>(
        'POST',
        `/studio/games/${game}/rollback`,
      );
      print(
        options,
        result,
        () => `${game}: rolled back to ${describeBuild(result.build)} (from build ${result.previous})`,
      );
    });
}

interface Key {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  last_used_at: string | null;
  revoked_at: string | null;
  key?: string;
}

function keyCommands(program: Command): void {
  const keys = program.command('keys').description("the game's developer keys");
  withCommon(keys.command('list'))
    .argument('<game>', 'the game slug')
    .description('the keys, by prefix, with their last use')
    .action(async (game: string, options: Common) => {
      const { keys: rows } = await apiOf(options).call<{ keys: Key[] }>('GET', `/studio/games/${game}/keys`);
      print(options, rows, () =>
        table(
          ['ID', 'NAME', 'PREFIX', 'SCOPES', 'LAST USED', 'REVOKED'],
          rows.map((k) => [
            String(k.id),
            k.name,
            k.prefix,
            k.scopes.join(','),
            k.last_used_at ?? '-',
            k.revoked_at ?? '-',
          ]),
        ),
      );
    });
  withCommon(keys.command('create'))
    .argument('<game>', 'the game slug')
    .requiredOption(
      '--scopes <a,b>',
      'states:read, states:write, scores:write, players:read, stats:read, builds:write, builds:release',
    )
    .option('--name <name>', 'what the key is for')
    .description('create a key and print it once')
    .action(async (game: string, options: Common & { scopes: string; name?: string }) => {
      const scopes = options.scopes.split(/[\s,]+/).filter(Boolean);
      const key = await apiOf(options).call<Key>('POST', `/studio/games/${game}/keys`, {
        body: { scopes, ...(options.name ? { name: options.name } : {}) },
      });
      print(
        options,
        key,
        () =>
          `created key ${key.id} "${key.name}" (${key.scopes.join(', ')}):\n${key.key}\nStore it now: it is not shown again.`,
      );
    });
  withCommon(keys.command('revoke'))
    .argument('<game>', 'the game slug')
    .argument('<id>', 'the key id (keys list)')
    .description('revoke a key at once')
    .action(async (game: string, id: string, options: Common) => {
      const result = await apiOf(options).call<{ revoked: boolean }>(
        'DELETE',
        `/studio/games/${game}/keys/${encodeURIComponent(id)}`,
      );
      print(options, result, () => (result.revoked ? `revoked key ${id}` : `key ${id} was revoked already`));
    });
}

/** A refusal as people read it (and as JSON with --json): the message, each field, the entry a zip was refused for. */
function report(error: unknown, json: boolean): number {
  if (error instanceof UploadStopped) {
    const message = `the upload stopped: ${error.message}\nresume it with --resume ${error.upload}`;
    if (json)
      console.log(JSON.stringify({ ok: false, error: { code: 'upload_stopped', message, upload: error.upload } }));
    else console.error(`gameplatform-cli: ${message}`);
    return 1;
  }
  if (error instanceof ApiError) {
    if (json)
      console.log(JSON.stringify({ ok: false, error: { ...error.details, code: error.code, message: error.message } }));
    else {
      console.error(`gameplatform-cli: ${error.message} (${error.code})`);
      const fields = (error.details.fields ?? {}) as Record<string, string>;
      for (const [field, message] of Object.entries(fields)) console.error(`  ${field}: ${message}`);
    }
    return 1;
  }
  if (error instanceof UsageError) {
    if (json) console.log(JSON.stringify({ ok: false, error: { code: 'usage', message: error.message } }));
    else console.error(`gameplatform-cli: ${error.message}`);
    return 2;
  }
  throw error;
}

export async function main(argv: string[]): Promise<number> {
  const program = new Command('gameplatform-cli')
    .description(`Deploy games to the Game Platform. The token comes from ${TOKEN_ENV}.`)
    .version(typeof VERSION === 'string' ? VERSION : 'dev')
    .exitOverride();
  deployCommand(program);
  buildCommands(program);
  keyCommands(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    const code = (error as { code?: string; exitCode?: number }).code;
    if (typeof code === 'string' && code.startsWith('commander.')) return (error as { exitCode: number }).exitCode;
    return report(error, argv.includes('--json'));
  }
}

process.exitCode = await main(process.argv);
