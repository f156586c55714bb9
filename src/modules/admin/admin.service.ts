// The operator console's reads that span capabilities (a player's detail, the games with their studio), the mail
// outbox and the audit log search (docs/operations.md, "The operator console").
import type { AppContext } from '../../context.js';
import { notFound, validationFailed } from '../../http/errors.js';
import {
  findOutboxMail,
  type OutboxState,
  pageOutboxMail,
  requeueOutboxMail,
} from '../../services/mail/outbox.repository.js';
import type { MailOutboxRow } from '../../db/schema.js';
import { formatTimestamp } from '../../time.js';
import { operatorPlayerView, playerById, playerIdByUsername, playerTokens } from '../accounts/admin.service.js';
import { type Actor, recordAudit, searchAudit } from '../audit/audit.service.js';
import { listAllGames } from '../games/admin.service.js';
import { playtime } from '../play/playtime.service.js';
import { listStudios, studiosOfPlayer } from '../studios/studios.service.js';

export async function playerDetail(ctx: AppContext, id: number) {
  const player = await playerById(ctx, id);
  return {
    player: operatorPlayerView(player, ctx.clock.now()),
    tokens: await playerTokens(ctx, id),
    playtime: await playtime(ctx, id, 30),
    studios: (await studiosOfPlayer(ctx, id)).map((s) => ({ slug: s.slug, name: s.name, role: s.role })),
  };
}

export async function operatorGames(ctx: AppContext) {
  const studios = new Map((await listStudios(ctx)).map((s) => [s.id, s.slug]));
  return (await listAllGames(ctx)).map(({ files_dir: _, studio_id, featured_at, ...game }) => ({
    ...game,
    studio: studio_id === null ? null : (studios.get(studio_id) ?? null),
    featured: featured_at !== null,
  }));
}

const stateOf = (m: MailOutboxRow): OutboxState =>
  m.next_attempt_at !== null ? 'pending' : m.last_error !== null ? 'failed' : 'kept';

const mailView = (m: MailOutboxRow) => ({
  id: m.id,
  state: stateOf(m),
  to: m.to_address,
  subject: m.subject,
  text: m.text_body,
  created_at: formatTimestamp(m.created_at),
  attempts: m.attempts,
  next_attempt_at: m.next_attempt_at === null ? null : formatTimestamp(m.next_attempt_at),
  last_error: m.last_error,
});

export async function outboxPage(ctx: AppContext, filter: { state?: OutboxState; before?: number; limit: number }) {
  const rows = await pageOutboxMail(ctx.db, { state: filter.state, beforeId: filter.before, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  return { mail: page.map(mailView), next_before: rows.length > filter.limit ? (page.at(-1)?.id ?? null) : null };
}

/** A mail the SMTP server refused is tried again now (and by the retry timer after that, as any waiting mail). */
export async function retryMail(ctx: AppContext, actor: Actor, id: number) {
  if (!ctx.config.smtp_url) throw validationFailed({ id: 'no smtp_url is set: mail is kept, never sent' });
  const row = await ctx.db.transaction().execute(async (trx) => {
    const mail = await findOutboxMail(trx, id);
    if (!mail) throw notFound(`No mail ${id} in the outbox`);
    if (stateOf(mail) !== 'failed') throw validationFailed({ id: 'is not a failed mail' });
    await requeueOutboxMail(trx, id, ctx.clock.now());
    await recordAudit(ctx, trx, {
      actor,
      studioId: null,
      action: 'mail.retry',
      targetType: 'mail',
      targetId: id,
      before: { state: 'failed', attempts: mail.attempts, last_error: mail.last_error },
      after: { state: 'pending' },
    });
    return (await findOutboxMail(trx, id))!;
  });
  void ctx.mailer.deliverDue().catch((error: unknown) => ctx.log.error({ err: error }, 'mail retry failed'));
  return mailView(row);
}

export interface AuditQuery {
  q?: string;
  actor?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
  before?: number;
  limit: number;
}

/** The whole log (every studio's entries too); `actor` is a player id or a username. */
export async function operatorAudit(ctx: AppContext, query: AuditQuery) {
  let actorId: number | undefined;
  if (query.actor) {
    if (/^\d+$/.test(query.actor)) actorId = Number(query.actor);
    else {
      const id = await playerIdByUsername(ctx, query.actor);
      if (id === undefined) return { entries: [], next_before: null };
      actorId = id;
    }
  }
  return searchAudit(ctx, {
    actorId,
    action: query.action || undefined,
    targetType: query.target_type || undefined,
    targetId: query.target_id || undefined,
    text: query.q?.trim() || undefined,
    beforeId: query.before,
    limit: query.limit,
  });
}
