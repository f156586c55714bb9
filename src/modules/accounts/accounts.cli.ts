// gameplatform players set-role | grant-unlimited | revoke-unlimited | suspend | unsuspend.
import type { Command } from 'commander';
import pino from 'pino';
import { withDatabase } from '../../cli.js';
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { createMailer } from '../mail/mailer.js';
import { describeMembership, grantUnlimited, revokeUnlimited, setRole, suspend, unsuspend } from './admin.service.js';
import { ROLES } from './membership.js';

/** The context services expect, for a command run. */
export function cliContext(config: Config, database: DatabaseHandle): AppContext {
  const log = pino({ level: config.log_level });
  return { config, db: database.db, dialect: database.dialect, clock: systemClock, log, mailer: createMailer({ config, db: database.db, clock: systemClock, log }) };
}

/** Runs an operator action; a refusal (unknown player, bad value) prints its message and exits with status 1. */
function action<A extends unknown[]>(fn: (ctx: AppContext, ...args: A) => Promise<string>) {
  return async (...args: A) => {
    await withDatabase(async (config, database) => {
      const ctx = cliContext(config, database);
      try {
        console.log(await fn(ctx, ...args));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        console.error(`gameplatform: ${error.message}`);
        process.exitCode = 1;
      } finally {
        await ctx.mailer.close();
      }
    });
  };
}

export function registerPlayerCommands(program: Command): void {
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
    .description("suspend a player: every token is revoked, login is refused, the profile is gone")
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
        return `${p.username} is active again`;
      }),
    );
}
