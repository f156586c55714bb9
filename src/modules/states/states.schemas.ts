// TypeBox schemas of the save-state routes: the State object and the request bodies of /v1/openapi.json.
import { Type, type Static } from '@sinclair/typebox';
import { RowId, SlotNumber, Timestamp } from '../../http/envelope.js';

const TIMESTAMP = { examples: Timestamp.examples as string[] };

/** The most bytes of JSON text a state may have (256 KB: docs/api.md, "Save states"). */
export const MAX_STATE_BYTES = 262_144;
export const MAX_LABEL_LENGTH = 80;
/**
 * Body limit of PUT state. A 262,144-byte state may arrive much larger on the wire (\u0061 escapes are six
 * bytes for one, pretty-printing adds whitespace); 2 MiB lets any reasonable form through and the size rule
 * is then applied to the canonical text. A larger body is 413 state_too_large too.
 */
export const STATE_BODY_LIMIT = 2 * 1024 * 1024;

/** A player id (row ids are 32-bit integers on PostgreSQL). */
const playerId = (description: string) => RowId(description);
const PLAYER_ID =
  'the player whose states these are: required with a developer key; with a player credential it may only name yourself (else 403 forbidden)';

export const GameParams = Type.Object({ slug: Type.String({ description: 'game slug' }) });

export const SlotParams = Type.Object({
  slug: Type.String({ description: 'game slug' }),
  slot: SlotNumber("slot number, 0 to the game's save_slots − 1; anything else is 422"),
});

export const PlayerQuery = Type.Object({
  player_id: Type.Optional(playerId(PLAYER_ID)),
});

const Version = Type.Integer({
  minimum: 1,
  description: 'version of the stored state: 1 for the first save of a slot, one more for each save',
});
const SizeBytes = Type.Integer({
  minimum: 0,
  maximum: MAX_STATE_BYTES,
  description: 'UTF-8 length of the JSON text of state (JSON.stringify, no whitespace)',
});
const label = (description: string) =>
  Type.Union([Type.String({ maxLength: MAX_LABEL_LENGTH }), Type.Null()], { description });
const Label = label(`up to ${MAX_LABEL_LENGTH} characters, or null`);
const payload = (description: string) => Type.Unknown({ description });
const PAYLOAD =
  'any JSON value, returned exactly as saved (null, a boolean, a number, a string, an array or an object)';

export const StateSummary = Type.Object({
  slot: Type.Integer({ minimum: 0 }),
  label: Label,
  version: Version,
  size_bytes: SizeBytes,
  created_at: Type.String({
    ...TIMESTAMP,
    description: 'timestamp YYYY-MM-DD HH:MM:SS (UTC) of the save that filled the empty slot',
  }),
  updated_at: Type.String({ ...TIMESTAMP, description: 'timestamp YYYY-MM-DD HH:MM:SS (UTC) of the last save' }),
});
export type StateSummary = Static<typeof StateSummary>;

export const State = Type.Object({
  slot: StateSummary.properties.slot,
  label: Label,
  version: Version,
  size_bytes: SizeBytes,
  state: payload(PAYLOAD),
  created_at: StateSummary.properties.created_at,
  updated_at: StateSummary.properties.updated_at,
});
export type State = Static<typeof State>;

export const PutStateBody = Type.Object(
  {
    state: payload(
      `any JSON value, required (null is a value, an absent state is 422); at most ${MAX_STATE_BYTES.toLocaleString('en')} bytes as JSON text, else 413 state_too_large`,
    ),
    label: Type.Optional(
      label(
        `up to ${MAX_LABEL_LENGTH} characters; null clears the label; absent keeps the stored label (none on a first save)`,
      ),
    ),
    expected_version: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'save only if the stored version is this one; 0 = only if the slot is empty. Absent: save whatever is stored',
      }),
    ),
    player_id: Type.Optional(playerId(PLAYER_ID)),
  },
  { additionalProperties: false },
);
export type PutStateBody = Static<typeof PutStateBody>;

export const PutStateResult = Type.Object(
  {
    slot: Type.Integer({ minimum: 0 }),
    version: Version,
    size_bytes: SizeBytes,
    created: Type.Boolean({ description: 'true when the slot was empty (HTTP 201)' }),
  },
  { title: 'PutStateResult', description: "the saved slot's new version" },
);
export type PutStateResult = Static<typeof PutStateResult>;

export const DeleteStateResult = Type.Object({
  deleted: Type.Boolean({ description: 'false when the slot was already empty' }),
});

export const StatesMeta = Type.Object({
  save_slots: Type.Integer({ minimum: 0, description: 'slots of the game: 0 to save_slots − 1' }),
});
