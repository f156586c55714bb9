// What only an account may do (API tokens, email, password, profile, avatar, deletion): a guest gets 403
// account_required, with what to do instead.
import type { AppContext } from '../../context.js';
import type { PlayerRow } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { findPlayerById } from './players.repository.js';

export const accountRequired = (what: string) =>
  new AppError('account_required', `${what}: create a free account (or log in) first; your progress comes with you`);

/** The player, if it is an account; 403 account_required for a guest, with `what` it lacks ("Guests have no API tokens"). */
export async function requireAccount(ctx: AppContext, playerId: number, what: string): Promise<PlayerRow> {
  const player = await findPlayerById(ctx.db, playerId);
  if (!player) throw new AppError('unauthenticated', 'The account no longer exists');
  if (player.guest === 1) throw accountRequired(what);
  return player;
}
