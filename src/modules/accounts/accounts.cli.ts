// gameplatform players set-role | grant-unlimited | revoke-unlimited | suspend | unsuspend | purge-deleted | purge-guests.
import type { Command } from 'commander';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { describeMembership, grantUnlimited, revokeUnlimited, setRole, suspend, unsuspend } from './admin.service.js';
import { purgeIdleGuests } from './guests.service.js';
import { ROLES } from './membership.js';
import { DELETION_GRACE_DAYS, purgeDeletedPlayers } from './self-service.service.js';

type WithContext = <T>(fn: (ctx: AppContext) => Promise<T>) => Promise<T>;

/**
 * The commands print what they did; a refusal (unknown player, bad value) is an AppError, which runCli prints
 * before exiting with status 1.
 */
export function registerPlayerCommands(program: Command, withContext: WithContext): void {
  /** Runs an operator action in a context and prints its summary. */
  const action =
    <A extends unknown[]>(fn: (ctx: AppContext, ...args: A) => Promise<string>) =>
    async (...args: A) => {
      console.log(await withContext((ctx) => fn(ctx, ...args)));
    };

  const players = program.command('players').description('player accounts: roles, membership, suspension');

  players
    .command('set-role')
    .description(`set a player's role (${ROLES.join(', ')}); staff and admin play without limit`)
    .argument('<username>')
    .argument('<role>')
    .action(
      action(async (ctx, username: string, role: string) => {
        const p = await setRole(ctx, username, role);
        return `${p.username} is now ${p.role}`;
      }),
    );

  players
    .command('grant-unlimited')
    .description('make a player an Unlimited member, with no end or until the end of a day (in reset_timezone)')
    .argument('<username>')
    .option('--until <YYYY-MM-DD>', 'last day of the membership')
    .action(
      action(async (ctx, username: string, options: { until?: string }) => {
        const p = await grantUnlimited(ctx, username, options.until);
        return `${p.username}: ${describeMembership(p)}`;
      }),
    );

  players
    .command('revoke-unlimited')
    .description('put a player back on the free plan at once')
    .argument('<username>')
    .action(
      action(async (ctx, username: string) => {
        const p = await revokeUnlimited(ctx, username);
        return `${p.username}: ${describeMembership(p)}`;
      }),
    );

  players
    .command('suspend')
    .description('suspend a player: every token is revoked, login is refused, the profile is gone')
    .argument('<username>')
    .action(
      action(async (ctx, username: string) => {
        const { player, revoked } = await suspend(ctx, username);
        return `${player.username} is suspended; ${revoked} token${revoked === 1 ? '' : 's'} revoked`;
      }),
    );

  players
    .command('unsuspend')
    .description('lift a suspension (the player logs in again)')
    .argument('<username>')
    .action(
      action(async (ctx, username: string) => {
        const p = await unsuspend(ctx, username);
        if (p.deletion_due_at === null) return `${p.username} is active again`;
        return `${p.username} can log in again; the deletion they asked for is still due at ${formatTimestamp(p.deletion_due_at)} UTC (their login cancels it)`;
      }),
    );

  players
    .command('purge-deleted')
    .description(
      `purge now the accounts deleted more than ${DELETION_GRACE_DAYS} days ago (the server also does it hourly)`,
    )
    .action(
      action(async (ctx) => {
        const purged = await purgeDeletedPlayers(ctx);
        return `${purged} deleted account${purged === 1 ? '' : 's'} purged`;
      }),
    );

  players
    .command('purge-guests')
    .description(
      'purge now the guest players whose tokens were not used for guests.idle_days (the server also does it hourly), with everything attached',
    )
    .option(
      '--idle-days <days>',
      'idle for this many days instead (0: every guest, e.g. before reverting the guests migration)',
    )
    .action(
      action(async (ctx, options: { idleDays?: string }) => {
        const days = options.idleDays === undefined ? undefined : Number(options.idleDays);
        if (days !== undefined && !(Number.isInteger(days) && days >= 0))
          throw new AppError('validation_failed', '--idle-days takes a whole number of days, 0 or more');
        const purged = await purgeIdleGuests(ctx, days);
        return `${purged} idle guest${purged === 1 ? '' : 's'} purged`;
      }),
    );
}
