// Claiming a guest (docs/api.md, "Guests"): registering with a guest's credential turns the guest into the account;
// logging in with one merges the guest into the account and removes it. Both run inside the caller's transaction.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { PlayerRow, PlayerUpdate } from '../../db/schema.js';
import { mergeFavorites } from '../games/library.service.js';
import { mergeRatings } from '../games/ratings.service.js';
import { mergePlayerPlay, type PlayMerge } from '../play/play.service.js';
import { mergePlayerScores } from '../scores/scores.service.js';
import { mergeSaves } from '../states/states.service.js';
import type { ClaimedGuest } from './accounts.schemas.js';
import { claimGuestRow, deleteGuestRow, lockGuest } from './guests.repository.js';
import { lockPlayer } from './players.repository.js';
import { revokeTokens } from './tokens.repository.js';

/** The guest behind the credential a register or login call carried (its token, or the portal session's). */
export interface GuestCredential {
  playerId: number;
  tokenId: number;
}

/**
 * The guest row becomes the account: the registration's fields, `guest` off; id, play, saves, scores, favourites and
 * history stay. The token of the call is revoked (the answer's new token replaces it); the guest's other tokens now
 * act for the account. Undefined when it is no longer a guest (claimed or merged by another call meanwhile): the
 * caller then registers a new player.
 */
export async function claimGuestForRegister(
  ctx: AppContext,
  trx: Executor,
  guest: GuestCredential,
  fields: PlayerUpdate,
): Promise<PlayerRow | undefined> {
  const row = await lockGuest(trx, guest.playerId);
  if (row?.status !== 'active') return undefined;
  const now = ctx.clock.now();
  const claimed = await claimGuestRow(trx, guest.playerId, { ...fields, updated_at: now });
  await revokeTokens(trx, guest.playerId, [guest.tokenId], now);
  return claimed;
}

export interface GuestMerge {
  claimed: ClaimedGuest;
  play: PlayMerge;
}

/**
 * Merges the guest into `account` and deletes it: today's and every day's seconds add up (for a free account never
 * past the allowance), its saves fill the account's empty slots only, its scores move with every rank exact, its
 * favourites and play history join the account's, its votes on games the account has not rated move. Locks the guest row, then the account's (every claim of one guest
 * waits for the first: a second finds no guest and returns undefined).
 */
export async function mergeGuestIntoAccount(
  ctx: AppContext,
  trx: Executor,
  guestId: number,
  account: PlayerRow,
): Promise<GuestMerge | undefined> {
  if (guestId === account.id || !(await lockGuest(trx, guestId))) return undefined;
  await lockPlayer(trx, account.id);
  const play = await mergePlayerPlay(ctx, trx, guestId, account);
  const saves = await mergeSaves(trx, guestId, account.id);
  const { scoresMoved } = await mergePlayerScores(trx, guestId, account.id);
  const favoritesAdded = await mergeFavorites(trx, guestId, account.id);
  await mergeRatings(trx, guestId, account.id);
  await deleteGuestRow(trx, guestId);
  return {
    play,
    claimed: {
      guest_id: guestId,
      via: 'merge',
      seconds_added_today: play.secondsAddedToday,
      saves_moved: saves.moved,
      saves_not_moved: saves.notMoved,
      scores_moved: scoresMoved,
      favorites_added: favoritesAdded,
    },
  };
}
