// gameplatform play …: operator commands for play sessions.
import type { Command } from 'commander';
import type { AppContext } from '../../context.js';
import { sweepIdleSessions } from './play.service.js';

type WithContext = <T>(fn: (ctx: AppContext) => Promise<T>) => Promise<T>;

export function registerPlayCommands(program: Command, withContext: WithContext): void {
  const play = program.command('play').description('play sessions');
  play
    .command('sweep')
    .description('close the play sessions idle for session_idle_timeout (the server also does this on a timer)')
    .action(async () => {
      const closed = await withContext((ctx) => sweepIdleSessions(ctx));
      console.log(`closed ${closed} idle play session${closed === 1 ? '' : 's'}`);
    });
}
