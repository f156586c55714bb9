// The AuditEntry schema: one entry of the audit log, as the operator's and a studio's audit routes answer it.
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/envelope.js';

export const AuditEntrySchema = Type.Object(
  {
    id: Type.Integer({ description: 'the entry id (the next page starts before the last one)' }),
    at: Type.String({ description: 'when, ISO 8601 (UTC)' }),
    actor: Type.Object(
      {
        id: Nullable(Type.Integer({ description: 'the acting player id' })),
        name: Type.String({ description: 'their username when they acted' }),
      },
      { description: 'who' },
    ),
    studio_id: Nullable(Type.Integer({ description: 'the studio acted in; null for an operator action' })),
    action: Type.String({ description: 'what, e.g. player.suspend, game.set_status, score.remove' }),
    target: Type.Object(
      {
        type: Type.String({ description: 'player, game, key, mail, studio, score…' }),
        id: Type.String({ description: "the target's id or slug" }),
      },
      { description: 'on what' },
    ),
    reason: Nullable(Type.String({ description: 'why, as given' })),
    before: Type.Unknown({ description: 'the changed fields before' }),
    after: Type.Unknown({ description: 'the changed fields after' }),
  },
  { title: 'AuditEntry', description: 'one action in the audit log' },
);
