// Operator actions (docs/operations.md, "Command line"): roles, Unlimited membership granted by hand (no billing), suspension.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { PlayerRow, PlayerUpdate } from '../../db/schema.js';
import { notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp, namedDay } from '../../time.js';
import { type Actor, recordAudit } from '../audit/audit.service.js';
import type { Membership } from './accounts.schemas.js';
import { membershipView, ROLES, type Role } from './membership.js';
import { membershipOf } from './player-views.js';
import {
  findPlayerById,
  findPlayerByLogin,
  findPlayerByUsername,
  lockPlayer,
  searchPlayers,
  updatePlayer,
} from './players.repository.js';
import { listActiveTokens, revokeAllTokens } from './tokens.repository.js';

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

// The operator console (/v1/admin/players…): the same actions by player id, each recorded in the audit log in its own
// transaction (docs/operations.md, "The operator console").

export interface OperatorPlayer {
  id: number;
  username: string;
  display_name: string;
  email: string | null;
  email_verified: boolean;
  guest: boolean;
  role: Role;
  status: string;
  membership: Membership;
  deletion_due_at: string | null;
  created_at: string;
}

export function operatorPlayerView(p: PlayerRow, now: number): OperatorPlayer {
  return {
    id: p.id,
    username: p.username,
    display_name: p.display_name,
    email: p.email,
    email_verified: p.email_verified === 1,
    guest: p.guest === 1,
    role: p.role as Role,
    status: p.status,
    membership: membershipOf(p, now),
    deletion_due_at: p.deletion_due_at === null ? null : formatTimestamp(p.deletion_due_at),
    created_at: formatTimestamp(p.created_at),
  };
}

/** Players whose id, username or email matches `text` (docs/api.md, "The operator console"). */
export async function findPlayers(ctx: AppContext, text: string, limit: number): Promise<OperatorPlayer[]> {
  const now = ctx.clock.now();
  return (await searchPlayers(ctx.db, text, limit)).map((p) => operatorPlayerView(p, now));
}

export async function playerById(ctx: AppContext, id: number, db: Executor = ctx.db): Promise<PlayerRow> {
  const player = await findPlayerById(db, id);
  if (!player) throw notFound(`No player ${id}`);
  return player;
}

/** The player's unrevoked, unexpired tokens and web sessions, without their secrets (the prefix only). */
export async function playerTokens(ctx: AppContext, id: number) {
  const now = ctx.clock.now();
  return (await listActiveTokens(ctx.db, id, null, now)).map((t) => ({
    id: t.id,
    kind: t.kind,
    name: t.name,
    prefix: t.prefix,
    created_at: formatTimestamp(t.created_at),
    last_used_at: t.last_used_at === null ? null : formatTimestamp(t.last_used_at),
    expires_at: formatTimestamp(t.expires_at),
  }));
}

/** What the player looks like in the log: the fields an operator changes. */
const audited = (p: PlayerRow, now: number) => ({
  role: p.role,
  status: p.status,
  membership: membershipView(p, now),
});

/** Changes a player in one transaction with its audit entry; `change` gives the new fields, or throws. */
async function operatorChange(
  ctx: AppContext,
  actor: Actor,
  id: number,
  action: string,
  reason: string | null,
  change: (player: PlayerRow, trx: Executor, now: number) => Promise<PlayerUpdate>,
): Promise<PlayerRow> {
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.now();
    const player = await lockPlayer(trx, id);
    if (!player) throw notFound(`No player ${id}`);
    const updated = (await updatePlayer(trx, id, { ...(await change(player, trx, now)), updated_at: now }))!;
    await recordAudit(ctx, trx, {
      actor,
      studioId: null,
      action,
      targetType: 'player',
      targetId: id,
      reason,
      before: audited(player, now),
      after: audited(updated, now),
    });
    return updated;
  });
}

/** Suspends the player and revokes every token in the same transaction, as `players suspend` does. */
export function operatorSuspend(ctx: AppContext, actor: Actor, id: number, reason: string | null) {
  return operatorChange(ctx, actor, id, 'player.suspend', reason, async (player, trx, now) => {
    if (player.status === 'suspended')
      throw validationFailed({ id: 'is suspended already' }, `${player.username} is suspended already`);
    await revokeAllTokens(trx, id, now);
    return { status: 'suspended' };
  });
}

export function operatorUnsuspend(ctx: AppContext, actor: Actor, id: number, reason: string | null) {
  return operatorChange(ctx, actor, id, 'player.unsuspend', reason, async (player) => {
    if (player.status !== 'suspended')
      throw validationFailed({ id: 'is not suspended' }, `${player.username} is not suspended`);
    return { status: player.deletion_due_at === null ? 'active' : 'deleting' };
  });
}

export function operatorSetRole(ctx: AppContext, actor: Actor, id: number, role: Role, reason: string | null) {
  return operatorChange(ctx, actor, id, 'player.set_role', reason, async () => ({ role }));
}

/** Unlimited (with no end, or until the end of the day `until` in reset_timezone) or back to free. */
export function operatorSetMembership(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: { plan: 'free' | 'unlimited'; until?: string | null },
  reason: string | null,
) {
  return operatorChange(ctx, actor, id, 'player.set_membership', reason, async (player, _trx, now) => {
    if (player.guest === 1) throw validationFailed({ plan: 'a guest has no membership' });
    if (input.plan === 'free')
      return {
        membership_plan: 'free',
        membership_status: 'none',
        membership_renews_at: null,
        membership_ends_at: null,
      };
    let endsAt: number | null = null;
    if (input.until) {
      const day = namedDay(input.until, ctx.config.reset_timezone);
      if (!day) throw validationFailed({ until: 'must be a date YYYY-MM-DD' });
      if (day.end <= now) throw validationFailed({ until: 'must not be in the past' });
      endsAt = day.end;
    }
    return {
      membership_plan: 'unlimited',
      membership_status: 'active',
      membership_renews_at: null,
      membership_ends_at: endsAt,
    };
  });
}

/** The operator acting, named as the audit log keeps them. */
export async function operatorActor(ctx: AppContext, playerId: number): Promise<Actor> {
  const player = await findPlayerById(ctx.db, playerId);
  return { id: playerId, name: player?.username ?? `#${playerId}` };
}

export async function playerIdByUsername(ctx: AppContext, username: string): Promise<number | undefined> {
  return (await findPlayerByUsername(ctx.db, username.trim()))?.id;
}
