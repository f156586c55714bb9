// gameplatform play …: operator commands for play sessions.
import type { Command } from 'commander';
import pino from 'pino';
import { systemClock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { sweepIdleSessions } from './play.service.js';

type WithDatabase = <T>(fn: (config: Config, database: DatabaseHandle) => Promise<T>) => Promise<T>;

function contextOf(config: Config, database: DatabaseHandle): AppContext {
  return { config, db: database.db, dialect: database.dialect, clock: systemClock, log: pino({ level: config.log_level }) };
}

export function registerPlayCommands(program: Command, withDatabase: WithDatabase): void {
  const play = program.command('play').description('play sessions');
  play
    .command('sweep')
    .description('close the play sessions idle for session_idle_timeout (the server also does this on a timer)')
    .action(async () => {
      const closed = await withDatabase((config, database) => sweepIdleSessions(contextOf(config, database)));
      console.log(`closed ${closed} idle play session${closed === 1 ? '' : 's'}`);
    });
}
