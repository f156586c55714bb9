// Studios and their members: created by an operator, or signed up by a player and approved by one (studios.self_signup);
// owners add and remove members by username or email.
import type { AppContext } from '../../context.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { findActivePlayerByLogin, operatorActor } from '../accounts/admin.service.js';
import { type Actor, recordAudit } from '../audit/audit.service.js';
import {
  endPreviews,
  gamesOfStudios,
  type StudioGameRow,
  type StudioGameView,
  studioGameView,
} from '../games/studio-games.service.js';
import { SLUG_PATTERN } from '../games/manifest.js';
import { STUDIO_ROLES, type StudioRole } from './access.js';
import {
  approve,
  countOwners,
  deleteMember,
  deleteStudio,
  findMembers,
  findRole,
  findStudioById,
  findStudioBySlug,
  findStudios,
  findStudiosOfPlayer,
  insertMember,
  insertStudio,
  lockStudio,
  type StudioRow,
  updateRole,
} from './studios.repository.js';

export interface StudioSummary {
  slug: string;
  name: string;
  /** active, or pending: signed up and waiting for an operator's approval */
  status: string;
  created_at: string;
}

export interface MemberView {
  player_id: number;
  username: string;
  display_name: string;
  role: StudioRole;
  since: string;
}

export const summaryOf = (s: StudioRow): StudioSummary => ({
  slug: s.slug,
  name: s.name,
  status: s.status,
  created_at: formatTimestamp(Number(s.created_at)),
});

const NAME_MAX = 80;

/** A slug from the name (`Nebula Works` → `nebula-works`), or the one given, checked. */
function slugFor(name: string, slug: string | undefined): string {
  const value =
    slug ??
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63)
      .replace(/-+$/, '');
  if (!SLUG_PATTERN.test(value))
    throw validationFailed(
      { slug: 'must be 1 to 64 lower-case letters, digits and hyphens, starting and ending with a letter or digit' },
      slug === undefined ? 'Give the studio a slug: its name makes none' : 'The slug is not valid',
    );
  return value;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || [...trimmed].length > NAME_MAX || /[\u0000-\u001f\u007f]/.test(trimmed))
    throw validationFailed({ name: `must be 1 to ${NAME_MAX} characters on one line` });
  return trimmed;
}

async function playerNamed(ctx: AppContext, login: string) {
  const player = await findActivePlayerByLogin(ctx, login);
  if (!player) throw notFound(`No player with the username or email ${login}`);
  return player;
}

/** The actor of an operator's command on the server's command line (studios.cli.ts). */
export const COMMAND_LINE: Actor = { id: null, name: 'command line' };

/** Inserts the studio, its first owner (if any) and the audit entry `studio.create` in one transaction. */
async function insertWithOwner(
  ctx: AppContext,
  values: { slug: string; name: string; status: string },
  owner: { id: number; username: string } | null,
  actor: Actor,
): Promise<StudioRow> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const id = await insertStudio(trx, {
      ...values,
      created_at: now,
      approved_at: values.status === 'active' ? now : null,
    });
    if (id === undefined) throw new AppError('slug_taken', `The slug ${values.slug} is taken by another studio`);
    if (owner !== null) await insertMember(trx, { studio_id: id, player_id: owner.id, role: 'owner', created_at: now });
    await recordAudit(ctx, trx, {
      actor,
      studioId: id,
      action: 'studio.create',
      targetType: 'studio',
      targetId: values.slug,
      before: null,
      after: { ...values, owner: owner?.username ?? null },
    });
    return (await findStudioBySlug(trx, values.slug))!;
  });
}

/** An operator creates an active studio, with a first owner named by username or email when given. */
export async function createStudio(
  ctx: AppContext,
  input: { name: string; slug?: string; owner?: string },
  actor: Actor,
): Promise<StudioRow> {
  const name = checkName(input.name);
  const owner = input.owner === undefined ? null : await playerNamed(ctx, input.owner);
  return insertWithOwner(ctx, { slug: slugFor(name, input.slug), name, status: 'active' }, owner, actor);
}

/** A player signs a studio up (studios.self_signup): it waits for an operator's approval, the player its owner. */
export async function signUpStudio(
  ctx: AppContext,
  playerId: number,
  input: { name: string; slug?: string },
): Promise<StudioRow> {
  if (!ctx.config.studios.self_signup)
    throw new AppError('forbidden', 'Studios are created by the operators of this platform: ask them for one');
  const name = checkName(input.name);
  const actor = await operatorActor(ctx, playerId);
  const owner = { id: playerId, username: actor.name };
  return insertWithOwner(ctx, { slug: slugFor(name, input.slug), name, status: 'pending' }, owner, actor);
}

export async function studioNamed(ctx: AppContext, slug: string): Promise<StudioRow> {
  const studio = await findStudioBySlug(ctx.db, slug);
  if (!studio) throw notFound(`No studio ${slug}`);
  return studio;
}

export function findStudio(ctx: AppContext, slug: string): Promise<StudioRow | undefined> {
  return findStudioBySlug(ctx.db, slug);
}

/** Makes a signed-up studio active, with the audit entry `studio.approve`; an active studio is left as it is. */
export async function approveStudio(ctx: AppContext, slug: string, actor: Actor): Promise<StudioRow> {
  const studio = await studioNamed(ctx, slug);
  if (studio.status === 'active') return studio;
  await ctx.db.transaction().execute(async (trx) => {
    await approve(trx, studio.id, ctx.clock.now());
    await recordAudit(ctx, trx, {
      actor,
      studioId: studio.id,
      action: 'studio.approve',
      targetType: 'studio',
      targetId: slug,
      before: { status: studio.status },
      after: { status: 'active' },
    });
  });
  return studioNamed(ctx, slug);
}

/** Refuses a studio waiting for approval: it is deleted (it never had games). */
export async function rejectStudio(ctx: AppContext, slug: string): Promise<void> {
  const studio = await studioNamed(ctx, slug);
  if (studio.status !== 'pending')
    throw validationFailed({ studio: 'is not waiting for approval' }, `${slug} is an active studio`);
  if ((await gamesOfStudios(ctx, [studio.id])).length)
    throw validationFailed({ studio: 'has games; give them to another studio first' });
  await deleteStudio(ctx.db, studio.id);
}

export async function listStudios(ctx: AppContext, status?: string): Promise<StudioRow[]> {
  return findStudios(ctx.db, status);
}

export async function studiosOfPlayer(ctx: AppContext, playerId: number) {
  return (await findStudiosOfPlayer(ctx.db, playerId)).map((s) => ({ ...summaryOf(s), role: s.role as StudioRole }));
}

export async function membersOf(ctx: AppContext, studio: StudioRow): Promise<MemberView[]> {
  return (await findMembers(ctx.db, studio.id)).map((m) => ({
    player_id: m.player_id,
    username: m.username,
    display_name: m.display_name,
    role: m.role as StudioRole,
    since: formatTimestamp(Number(m.created_at)),
  }));
}

function checkRole(role: string): StudioRole {
  if (!(STUDIO_ROLES as readonly string[]).includes(role))
    throw validationFailed({ role: `must be one of ${STUDIO_ROLES.join(', ')}` });
  return role as StudioRole;
}

/** Adds a member by username or email. */
export async function addMember(
  ctx: AppContext,
  studio: StudioRow,
  login: string,
  role: string,
): Promise<MemberView[]> {
  const checked = checkRole(role);
  const player = await playerNamed(ctx, login);
  const added = await insertMember(ctx.db, {
    studio_id: studio.id,
    player_id: player.id,
    role: checked,
    created_at: ctx.clock.now(),
  });
  if (!added) throw new AppError('already_member', `${player.username} is a member of ${studio.slug} already`);
  return membersOf(ctx, studio);
}

/**
 * Changes a member's role or (role null) removes them, with the studio locked so that two owners leaving at once
 * cannot both go: the last owner stays (409 last_owner). A removed member's previews end.
 */
export async function changeMember(
  ctx: AppContext,
  studio: StudioRow,
  playerId: number,
  role: string | null,
): Promise<MemberView[]> {
  const checked = role === null ? null : checkRole(role);
  await ctx.db.transaction().execute(async (trx) => {
    await lockStudio(trx, studio.id);
    const current = await findRole(trx, studio.id, playerId);
    if (!current) throw notFound('No such member of the studio');
    if (current === 'owner' && checked !== 'owner' && (await countOwners(trx, studio.id)) <= 1)
      throw new AppError('last_owner', 'The studio needs an owner: make another member owner first');
    if (checked === null) await deleteMember(trx, studio.id, playerId);
    else await updateRole(trx, studio.id, playerId, checked);
  });
  if (checked === null)
    await endPreviews(
      ctx,
      (await gamesOfStudios(ctx, [studio.id])).map((g) => g.id),
      playerId,
    );
  return membersOf(ctx, studio);
}

/** A game as its studio sees it, naming the studio by its slug. */
export async function gameViewOf(
  ctx: AppContext,
  row: StudioGameRow,
): Promise<StudioGameView & { studio: string | null }> {
  const studio = row.studio_id === null ? undefined : await findStudioById(ctx.db, row.studio_id);
  return { ...(await studioGameView(ctx, row)), studio: studio?.slug ?? null };
}

/** The studio, who the caller is in it, its members and its games. */
export async function studioDetail(ctx: AppContext, studio: StudioRow, access: string) {
  return {
    studio: summaryOf(studio),
    role: access,
    members: await membersOf(ctx, studio),
    games: (await gamesOfStudios(ctx, [studio.id])).map((g) => g.slug),
  };
}

/** The games of every studio the player belongs to. */
export async function gamesOfPlayer(ctx: AppContext, playerId: number): Promise<StudioGameRow[]> {
  return gamesOfStudios(
    ctx,
    (await findStudiosOfPlayer(ctx.db, playerId)).map((s) => s.id),
  );
}
