// Queries on studios and studio_members.
import { isPostgres, type Executor } from '../../db/connect.js';
import type { StudiosTable } from '../../db/schema.js';
import type { Insertable, Selectable } from 'kysely';

export type StudioRow = Selectable<StudiosTable>;

export interface MemberRow {
  player_id: number;
  username: string;
  display_name: string;
  role: string;
  created_at: number;
}

/** Inserts the studio unless its slug is taken; its id, or undefined. */
export async function insertStudio(db: Executor, values: Insertable<StudiosTable>): Promise<number | undefined> {
  const row = await db
    .insertInto('studios')
    .values(values)
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export function findStudioBySlug(db: Executor, slug: string): Promise<StudioRow | undefined> {
  return db.selectFrom('studios').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export function findStudioById(db: Executor, id: number): Promise<StudioRow | undefined> {
  return db.selectFrom('studios').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every studio (of one status when given), by slug. */
export function findStudios(db: Executor, status?: string): Promise<StudioRow[]> {
  let query = db.selectFrom('studios').selectAll();
  if (status !== undefined) query = query.where('status', '=', status);
  return query.orderBy('slug').execute();
}

/** The studios a player belongs to, with their role. Index studio_members_player_idx. */
export function findStudiosOfPlayer(db: Executor, playerId: number): Promise<Array<StudioRow & { role: string }>> {
  return db
    .selectFrom('studio_members as m')
    .innerJoin('studios as s', 's.id', 'm.studio_id')
    .selectAll('s')
    .select('m.role')
    .where('m.player_id', '=', playerId)
    .orderBy('s.slug')
    .execute();
}

/** The player's role in the studio, or undefined when not a member. Primary key. */
export async function findRole(db: Executor, studioId: number, playerId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('studio_members')
    .select('role')
    .where('studio_id', '=', studioId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
  return row?.role;
}

export function findMembers(db: Executor, studioId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('studio_members as m')
    .innerJoin('players as p', 'p.id', 'm.player_id')
    .select(['m.player_id', 'p.username', 'p.display_name', 'm.role', 'm.created_at'])
    .where('m.studio_id', '=', studioId)
    .orderBy('m.created_at')
    .orderBy('m.player_id')
    .execute();
}

/** Adds the member unless they are one; true when added. */
export async function insertMember(
  db: Executor,
  values: { studio_id: number; player_id: number; role: string; created_at: number },
): Promise<boolean> {
  const result = await db
    .insertInto('studio_members')
    .values(values)
    .onConflict((oc) => oc.columns(['studio_id', 'player_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteMember(db: Executor, studioId: number, playerId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('studio_members')
    .where('studio_id', '=', studioId)
    .where('player_id', '=', playerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateRole(db: Executor, studioId: number, playerId: number, role: string): Promise<void> {
  await db
    .updateTable('studio_members')
    .set({ role })
    .where('studio_id', '=', studioId)
    .where('player_id', '=', playerId)
    .execute();
}

/** Locks the studio's row until the transaction ends (PostgreSQL): member changes of one studio run one at a time. */
export async function lockStudio(db: Executor, studioId: number): Promise<void> {
  if (!isPostgres(db)) return;
  await db.selectFrom('studios').select('id').where('id', '=', studioId).forUpdate().execute();
}

export async function countOwners(db: Executor, studioId: number): Promise<number> {
  const row = await db
    .selectFrom('studio_members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('studio_id', '=', studioId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function approve(db: Executor, studioId: number, now: number): Promise<void> {
  await db.updateTable('studios').set({ status: 'active', approved_at: now }).where('id', '=', studioId).execute();
}

export async function deleteStudio(db: Executor, studioId: number): Promise<void> {
  await db.deleteFrom('studios').where('id', '=', studioId).execute();
}
