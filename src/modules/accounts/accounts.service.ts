// The own account (GET/PATCH /me) and public profiles (GET /players/{username}).
import type { AppContext } from '../../context.js';
import type { PlayerUpdate } from '../../db/schema.js';
import { uniqueViolation } from '../../db/unique.js';
import { AppError, notFound } from '../../http/errors.js';
import { getEntitlement } from '../play/entitlement.js';
import type { BestScore, PatchMeInput } from './accounts.schemas.js';
import { requireAccount } from './account-only.js';
import { isUnlimitedMember } from './membership.js';
import { membershipOf, ownPlayerView, publicPlayerView } from './player-views.js';
import { bestScoresForProfile } from '../scores/leaderboard.service.js';
import { recentlyPlayed } from '../games/library.service.js';
import { findPlayerById, findPlayerByUsername, updatePlayer, usernameTaken } from './players.repository.js';

const usernameTakenError = () => new AppError('username_taken', 'This username is taken');

/** The player behind a valid credential; a player deleted since cannot reach here (the token join checks it). */
async function requirePlayer(ctx: AppContext, playerId: number) {
  const player = await findPlayerById(ctx.db, playerId);
  if (!player) throw new AppError('unauthenticated', 'The account no longer exists');
  return player;
}

export async function getMe(ctx: AppContext, playerId: number) {
  const player = await requirePlayer(ctx, playerId);
  return {
    player: ownPlayerView(ctx.config, player),
    entitlement: await getEntitlement(ctx, player),
    membership: membershipOf(player, ctx.clock.now()),
  };
}

/** The row changes a PATCH /me body asks for; fields already normalised (trimmed, NFC) by the route. */
function changesOf(input: PatchMeInput): PlayerUpdate {
  const changes: PlayerUpdate = {};
  if (input.display_name !== undefined) changes.display_name = input.display_name;
  if (input.username !== undefined) {
    changes.username = input.username;
    changes.username_key = input.username.toLowerCase();
  }
  if (input.bio !== undefined) changes.bio = input.bio === null || input.bio === '' ? null : input.bio;
  if (input.country !== undefined) {
    // The route's schema (format iso-country) has checked the code; it is stored upper-case.
    const code = (input.country ?? '').toUpperCase();
    changes.country = code === '' ? null : code;
  }
  if (input.newsletter !== undefined) changes.newsletter = input.newsletter ? 1 : 0;
  return changes;
}

/** Applies the fields sent; a username another player holds in any letter case is 409 (also when a race loses at the insert). */
export async function updateMe(ctx: AppContext, playerId: number, input: PatchMeInput) {
  await requireAccount(ctx, playerId, 'Guests have no profile to change');
  const changes = changesOf(input);
  if (input.username !== undefined && (await usernameTaken(ctx.db, input.username, playerId)))
    throw usernameTakenError();
  if (Object.keys(changes).length === 0) return ownPlayerView(ctx.config, await requirePlayer(ctx, playerId));
  try {
    const player = await updatePlayer(ctx.db, playerId, { ...changes, updated_at: ctx.clock.now() });
    if (!player) throw new AppError('unauthenticated', 'The account no longer exists');
    return ownPlayerView(ctx.config, player);
  } catch (error) {
    if (uniqueViolation(error) === 'username_key') throw usernameTakenError();
    throw error;
  }
}

/** The best-score entries of a public profile: the all-time best on each visible game's `main` board. */
export async function bestScores(ctx: AppContext, playerId: number): Promise<BestScore[]> {
  return bestScoresForProfile(ctx, playerId);
}

type PlayerForProfile = Parameters<typeof isUnlimitedMember>[0] & { id: number };

/** Any active player by username, case-insensitively; unknown and suspended players are 404 alike. */
export async function publicProfile(ctx: AppContext, username: string) {
  const player = await findPlayerByUsername(ctx.db, username);
  // A guest has no public profile: it is as unknown as a name nobody holds.
  if (player?.status !== 'active' || player.guest === 1) throw notFound('No player with this username');
  return profileOf(ctx, player);
}

/** A player's public profile (GET /players/{username}, and GET /dev/players/{id} the same object). */
export async function profileOf(ctx: AppContext, player: Parameters<typeof publicPlayerView>[1] & PlayerForProfile) {
  return {
    player: publicPlayerView(ctx.config, player),
    unlimited: isUnlimitedMember(player, ctx.clock.now()),
    best_scores: await bestScores(ctx, player.id),
    recently_played: (await recentlyPlayed(ctx, player.id, 6)).map((entry) => ({
      game: entry.game.slug,
      game_name: entry.game.name,
      cover_url: entry.game.cover_url,
      last_played_at: entry.last_played_at,
    })),
  };
}
