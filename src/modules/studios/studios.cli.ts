// gameplatform studios …: the operators' side of studios on the server's command line (the same as /v1/admin).
import type { Command } from 'commander';
import type { AppContext } from '../../context.js';
import { decideReview, pendingReviews } from '../games/listing.service.js';
import { setGameStudio } from '../games/studio-games.service.js';
import {
  addMember,
  approveStudio,
  COMMAND_LINE,
  changeMember,
  createStudio,
  listStudios,
  membersOf,
  rejectStudio,
  studioNamed,
} from './studios.service.js';

type WithContext = <T>(fn: (ctx: AppContext) => Promise<T>, options?: { readOnly?: boolean }) => Promise<T>;

function table(header: string[], rows: string[][]): string {
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

function studioCommands(studios: Command, withContext: WithContext): void {
  studios
    .command('create')
    .argument('<name>', "the studio's name")
    .option('--slug <slug>', 'its slug (default: made from the name)')
    .option('--owner <login>', 'the username or email of its first owner')
    .description('create a studio (active at once)')
    .action(async (name: string, options: { slug?: string; owner?: string }) => {
      const studio = await withContext((ctx) => createStudio(ctx, { name, ...options }, COMMAND_LINE));
      console.log(`created studio ${studio.slug} "${studio.name}"${options.owner ? ` owned by ${options.owner}` : ''}`);
    });

  studios
    .command('list')
    .option('--pending', 'only the studios waiting for approval')
    .option('--json', 'print the studios as a JSON array')
    .description('every studio')
    .action(async (options: { pending?: boolean; json?: boolean }) => {
      const rows = await withContext((ctx) => listStudios(ctx, options.pending ? 'pending' : undefined), {
        readOnly: true,
      });
      if (options.json)
        return console.log(
          JSON.stringify(
            rows.map(({ slug, name, status }) => ({ slug, name, status })),
            null,
            2,
          ),
        );
      if (rows.length === 0) return console.log(options.pending ? 'no studio waits for approval' : 'no studios yet');
      console.log(
        table(
          ['SLUG', 'STATUS', 'NAME'],
          rows.map((s) => [s.slug, s.status, s.name]),
        ),
      );
    });

  studios
    .command('approve')
    .argument('<studio>', 'the studio slug')
    .description('approve a studio that signed up (studios.self_signup)')
    .action(async (slug: string) => {
      await withContext((ctx) => approveStudio(ctx, slug, COMMAND_LINE));
      console.log(`${slug} is active`);
    });

  studios
    .command('reject')
    .argument('<studio>', 'the studio slug')
    .description('turn down a studio waiting for approval (it is deleted)')
    .action(async (slug: string) => {
      await withContext((ctx) => rejectStudio(ctx, slug));
      console.log(`${slug} is deleted`);
    });
}

function memberCommands(studios: Command, withContext: WithContext): void {
  studios
    .command('members')
    .argument('<studio>', 'the studio slug')
    .description("a studio's members and their roles")
    .action(async (slug: string) => {
      const members = await withContext(async (ctx) => membersOf(ctx, await studioNamed(ctx, slug)), {
        readOnly: true,
      });
      if (members.length === 0) return console.log(`${slug} has no members`);
      console.log(
        table(
          ['ID', 'USERNAME', 'ROLE', 'SINCE'],
          members.map((m) => [String(m.player_id), m.username, m.role, m.since]),
        ),
      );
    });

  studios
    .command('add-member')
    .argument('<studio>', 'the studio slug')
    .argument('<login>', 'the username or email of the player')
    .option('--role <role>', 'owner or developer', 'developer')
    .description('add a member to a studio')
    .action(async (slug: string, login: string, options: { role: string }) => {
      await withContext(async (ctx) => addMember(ctx, await studioNamed(ctx, slug), login, options.role));
      console.log(`${login} is a ${options.role} of ${slug}`);
    });

  studios
    .command('remove-member')
    .argument('<studio>', 'the studio slug')
    .argument('<player-id>', 'the member (studios members lists the ids)')
    .description('remove a member from a studio (never its last owner)')
    .action(async (slug: string, id: string) => {
      await withContext(async (ctx) =>
        changeMember(ctx, await studioNamed(ctx, slug), /^\d+$/.test(id) ? Number(id) : 0, null),
      );
      console.log(`removed member ${id} from ${slug}`);
    });
}

function gameCommands(studios: Command, withContext: WithContext): void {
  studios
    .command('give-game')
    .argument('<studio>', 'the studio slug, or - for the operators')
    .argument('<game>', 'the game slug')
    .description('hand a game to a studio: its members deploy, preview and release it from then on')
    .action(async (slug: string, game: string) => {
      await withContext(async (ctx) =>
        setGameStudio(ctx, game, slug === '-' ? null : (await studioNamed(ctx, slug)).id),
      );
      console.log(slug === '-' ? `${game} belongs to the operators again` : `${game} belongs to ${slug}`);
    });

  studios
    .command('reviews')
    .description("status changes waiting for an operator's review (studios.review)")
    .action(async () => {
      const rows = await withContext((ctx) => pendingReviews(ctx), { readOnly: true });
      if (rows.length === 0) return console.log('no review is pending');
      console.log(
        table(
          ['GAME', 'STATUS', 'ASKS FOR'],
          rows.map((g) => [g.slug, g.status, g.review_target ?? '']),
        ),
      );
    });

  studios
    .command('review')
    .argument('<game>', 'the game slug')
    .option('--approve', 'the game takes the status asked for')
    .option('--reject <note>', 'the game keeps its status; the note says why')
    .description('decide a pending review')
    .action(async (game: string, options: { approve?: boolean; reject?: string }) => {
      if (Boolean(options.approve) === (options.reject !== undefined)) {
        console.error('gameplatform: say --approve or --reject <note>');
        process.exitCode = 2;
        return;
      }
      const row = await withContext((ctx) => decideReview(ctx, game, Boolean(options.approve), options.reject ?? null));
      console.log(options.approve ? `${game} is ${row.status}` : `rejected: ${game} stays ${row.status}`);
    });
}

export function registerStudioCommands(program: Command, withContext: WithContext): void {
  const studios = program.command('studios').description('studios: the teams that publish their own games');
  studioCommands(studios, withContext);
  memberCommands(studios, withContext);
  gameCommands(studios, withContext);
}
