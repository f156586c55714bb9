// TypeBox schemas of the /dev routes: paths that name the player, and the shapes a developer key may see.
// Every response is built from the public schemas (never PlayerOwnSchema or MembershipSchema), and responses are
// serialised through these schemas, so an email address or an account setting cannot reach a game backend.
import { Type, type Static } from '@sinclair/typebox';
import { MAX_ROW_ID, SlotNumber } from '../../http/envelope.js';
import { ProfileSchema } from '../accounts/accounts.schemas.js';
import { SubmitBody } from '../scores/scores.schemas.js';
import { PutStateBody, PutStateResult, StateSummary } from '../states/states.schemas.js';

const PlayerId = Type.Integer({
  minimum: 1,
  maximum: MAX_ROW_ID,
  description:
    "player id (`player.id` of the public view); a player who has not started a play session of the key's game is 404",
});
const Slug = Type.String({ description: "game slug: the developer key's own game (another game is 403 forbidden)" });

export const PlayerParams = Type.Object({ id: PlayerId });
export const GamePlayerParams = Type.Object({ slug: Slug, id: PlayerId });
export const GamePlayerSlotParams = Type.Object({
  slug: Slug,
  id: PlayerId,
  slot: SlotNumber("slot number, 0 to the game's save_slots − 1; anything else is 422"),
});
export const GameParams = Type.Object({ slug: Slug });

/** The same object as GET /players/{username}: public view, `unlimited`, `best_scores`, `recently_played`. */
export const DevProfile = Type.Object(
  {
    player: ProfileSchema.properties.player,
    unlimited: ProfileSchema.properties.unlimited,
    best_scores: ProfileSchema.properties.best_scores,
    recently_played: ProfileSchema.properties.recently_played,
  },
  { description: 'Public profile: exactly what GET /players/{username} shows anyone' },
);
export type DevProfile = Static<typeof DevProfile>;

export const ListStatesQuery = Type.Object({
  include_state: Type.Boolean({
    default: false,
    description:
      "`true` adds each state's payload (`state`) to the list; `false` (the default) lists as GET /games/{slug}/states does",
  }),
});

const summary = StateSummary.properties;
export const DevStateItem = Type.Object(
  {
    slot: Type.Integer({ minimum: 0, description: 'slot number' }),
    label: summary.label,
    version: summary.version,
    size_bytes: summary.size_bytes,
    state: Type.Optional(
      Type.Unknown({
        description: 'the payload exactly as saved (any JSON value, null included); only with include_state=true',
      }),
    ),
    created_at: summary.created_at,
    updated_at: summary.updated_at,
  },
  { description: 'A stored state; empty slots are not listed' },
);
export type DevStateItem = Static<typeof DevStateItem>;

export const DevStatesMeta = Type.Object({
  save_slots: Type.Integer({ minimum: 0, description: 'slots of the game: 0 to save_slots − 1' }),
});

/** PUT state's body without `player_id`: the player is in the path. */
export const DevPutStateBody = Type.Object(
  {
    state: PutStateBody.properties.state,
    label: PutStateBody.properties.label,
    expected_version: PutStateBody.properties.expected_version,
  },
  { additionalProperties: false },
);

/** PUT state's result (the same object), with each field described. */
export const DevPutStateResult = Type.Object(
  {
    slot: Type.Integer({ minimum: 0, description: 'the slot saved into' }),
    version: PutStateResult.properties.version,
    size_bytes: PutStateResult.properties.size_bytes,
    created: PutStateResult.properties.created,
  },
  { title: 'DevPutStateResult', description: "the saved slot's new version" },
);

/** POST scores' body without `player_id`: the player is in the path. */
export const DevSubmitBody = Type.Object(
  {
    score: SubmitBody.properties.score,
    board: SubmitBody.properties.board,
    meta: SubmitBody.properties.meta,
    play_session: SubmitBody.properties.play_session,
  },
  { additionalProperties: false },
);
export type DevSubmitBody = Static<typeof DevSubmitBody>;
