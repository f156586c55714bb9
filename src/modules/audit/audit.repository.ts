// Queries on audit_log.
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { AuditLogTable } from '../../db/schema.js';

export type AuditRow = Selectable<AuditLogTable>;

export async function insertAuditEntry(db: Executor, values: Insertable<AuditLogTable>): Promise<number> {
  const row = await db.insertInto('audit_log').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface AuditFilter {
  /** only this studio's entries (a studio's own log); undefined for every entry (the operator's log) */
  studioId?: number;
  actorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  /** words found, case-insensitively, in the actor's name, the action, the target or the reason */
  text?: string;
  /** entries older than this id (the next page) */
  beforeId?: number;
  limit: number;
}

/** Entries matching the filter, newest first. */
export function findAuditEntries(db: Executor, filter: AuditFilter): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.studioId !== undefined) query = query.where('studio_id', '=', filter.studioId);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.targetType !== undefined) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  if (filter.text) {
    const pattern = `%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = (column: 'actor_name' | 'action' | 'target_id' | 'reason') =>
      sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
    query = query.where((eb) =>
      eb.or([matches('actor_name'), matches('action'), matches('target_id'), matches('reason')]),
    );
  }
  return query.orderBy('id', 'desc').limit(filter.limit).execute();
}
