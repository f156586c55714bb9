// Operator actions (docs/operations.md, "Command line"): roles, Unlimited membership granted by hand (no billing), suspension.
import type { AppContext } from '../../context.js';
import type { PlayerRow } from '../../db/schema.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp, namedDay } from '../../time.js';
import { ROLES, type Role } from './membership.js';
import { findPlayerByLogin, findPlayerByUsername, updatePlayer } from './players.repository.js';
import { revokeAllTokens } from './tokens.repository.js';

async function playerNamed(ctx: AppContext, username: string): Promise<PlayerRow> {
  const player = await findPlayerByUsername(ctx.db, username);
  if (!player) throw notFound(`No player named ${username}`);
  return player;
}

export async function setRole(ctx: AppContext, username: string, role: string): Promise<PlayerRow> {
  if (!(ROLES as readonly string[]).includes(role))
    throw validationFailed({ role: `must be one of ${ROLES.join(', ')}` }, `Unknown role ${role}`);
  const player = await playerNamed(ctx, username);
  return (await updatePlayer(ctx.db, player.id, { role: role as Role, updated_at: ctx.clock.now() }))!;
}

/**
 * Unlimited from now on: until the end of the day `until` (YYYY-MM-DD, in reset_timezone) when given, else with no end.
 * It is "active" without renewal, as billing is out of scope.
 */
export async function grantUnlimited(ctx: AppContext, username: string, until?: string): Promise<PlayerRow> {
  const now = ctx.clock.now();
  let endsAt: number | null = null;
  if (until !== undefined) {
    const day = namedDay(until, ctx.config.reset_timezone);
    if (!day)
      throw validationFailed({ until: 'must be a date YYYY-MM-DD' }, `--until must be a date YYYY-MM-DD, got ${until}`);
    if (day.end <= now) throw validationFailed({ until: 'must not be in the past' }, `--until ${until} is in the past`);
    endsAt = day.end;
  }
  const player = await playerNamed(ctx, username);
  return (await updatePlayer(ctx.db, player.id, {
    membership_plan: 'unlimited',
    membership_status: 'active',
    membership_renews_at: null,
    membership_ends_at: endsAt,
    updated_at: now,
  }))!;
}

/** Back to the free plan at once. */
export async function revokeUnlimited(ctx: AppContext, username: string): Promise<PlayerRow> {
  const player = await playerNamed(ctx, username);
  return (await updatePlayer(ctx.db, player.id, {
    membership_plan: 'free',
    membership_status: 'none',
    membership_renews_at: null,
    membership_ends_at: null,
    updated_at: ctx.clock.now(),
  }))!;
}

/** Suspends the player and revokes every token at once; the profile answers 404 and login is refused. */
export async function suspend(ctx: AppContext, username: string): Promise<{ player: PlayerRow; revoked: number }> {
  const player = await playerNamed(ctx, username);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const updated = (await updatePlayer(trx, player.id, { status: 'suspended', updated_at: now }))!;
    return { player: updated, revoked: await revokeAllTokens(trx, player.id, now) };
  });
}

/**
 * Lifts a suspension; the player logs in again (the old tokens stay revoked). A deletion the player asked for before
 * the suspension is still pending (status deleting again): their login within the grace period cancels it.
 */
export async function unsuspend(ctx: AppContext, username: string): Promise<PlayerRow> {
  const player = await playerNamed(ctx, username);
  if (player.status !== 'suspended')
    throw validationFailed({ username: 'is not suspended' }, `${player.username} is not suspended`);
  const status = player.deletion_due_at === null ? 'active' : 'deleting';
  return (await updatePlayer(ctx.db, player.id, { status, updated_at: ctx.clock.now() }))!;
}

export function describeMembership(p: PlayerRow): string {
  if (p.membership_plan !== 'unlimited') return 'free';
  return p.membership_ends_at === null
    ? 'Unlimited, no end date'
    : `Unlimited until ${formatTimestamp(p.membership_ends_at)} UTC`;
}

/** An active player named by username or email (case-insensitive), as studios add members; null when there is none. */
export async function findActivePlayerByLogin(
  ctx: AppContext,
  login: string,
): Promise<{ id: number; username: string; display_name: string } | null> {
  const player = await findPlayerByLogin(ctx.db, login.trim());
  if (player?.status !== 'active') return null;
  return { id: player.id, username: player.username, display_name: player.display_name };
}
