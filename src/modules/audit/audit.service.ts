// The audit log of the consoles: every action a studio member or an operator takes records who did what to what,
// when, why, and the changed fields before → after. Entries are written in the action's own transaction, so an
// action and its entry land together or not at all.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import { type AuditFilter, type AuditRow, findAuditEntries, insertAuditEntry } from './audit.repository.js';

export interface Actor {
  id: number | null;
  /** kept as it was when acting: the log outlives renames and deleted accounts */
  name: string;
}

export interface AuditEvent {
  actor: Actor;
  /** the studio the action was taken in, or null for an operator's action outside any studio */
  studioId: number | null;
  /** e.g. `score.remove`, `player.suspend`, `build.release` */
  action: string;
  targetType: string;
  targetId: string | number;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: { id: number | null; name: string };
  studio_id: number | null;
  action: string;
  target: { type: string; id: string };
  reason: string | null;
  before: unknown;
  after: unknown;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** Records one action; `db` is the action's transaction. */
export async function recordAudit(ctx: AppContext, db: Executor, event: AuditEvent): Promise<number> {
  return insertAuditEntry(db, {
    at: ctx.clock.now(),
    actor_id: event.actor.id,
    actor_name: event.actor.name,
    studio_id: event.studioId,
    action: event.action,
    target_type: event.targetType,
    target_id: String(event.targetId),
    reason: event.reason ?? null,
    before_json: json(event.before),
    after_json: json(event.after),
  });
}

export function auditView(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: new Date(Number(row.at)).toISOString(),
    actor: { id: row.actor_id, name: row.actor_name },
    studio_id: row.studio_id,
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    reason: row.reason,
    before: row.before_json === null ? null : JSON.parse(row.before_json),
    after: row.after_json === null ? null : JSON.parse(row.after_json),
  };
}

/** A page of entries, newest first, and the id to continue from (null on the last page). */
export async function searchAudit(
  ctx: AppContext,
  filter: AuditFilter,
): Promise<{ entries: AuditEntry[]; next_before: number | null }> {
  const rows = await findAuditEntries(ctx.db, { ...filter, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  return { entries: page.map(auditView), next_before: rows.length > filter.limit ? (page.at(-1)?.id ?? null) : null };
}
