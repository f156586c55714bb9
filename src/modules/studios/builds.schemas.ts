// TypeBox schemas of the build routes: uploads in parts, builds, release and rollback, preview.
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../http/envelope.js';
import { LEADERBOARD_ORDERS, ORIENTATIONS } from '../games/manifest.js';
import { MAX_PART_BYTES, MAX_PARTS } from '../games/uploads.service.js';

const literals = (values: readonly string[]) => values.map((v) => Type.Literal(v));

export const BuildParams = Type.Object({
  slug: Type.String({ maxLength: 64, description: 'the game slug' }),
  number: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'the build number' }),
});
export const UploadParams = Type.Object({
  slug: Type.String({ maxLength: 64, description: 'the game slug' }),
  upload: Type.String({ maxLength: 64, description: 'the upload id' }),
});
export const PartParams = Type.Object({
  slug: Type.String({ maxLength: 64, description: 'the game slug' }),
  upload: Type.String({ maxLength: 64, description: 'the upload id' }),
  part: Type.Integer({ minimum: 1, maximum: MAX_PARTS, description: `the part number, 1 to ${MAX_PARTS}` }),
});

export const BuildSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1, description: 'numbered per game from 1, never reused' }),
    version: Type.String({ description: "game.json's version" }),
    state: Type.Union(literals(['ready', 'pruned']), {
      description:
        'pruned: its files were deleted (setting builds.keep); it stays in the list but cannot be previewed or released',
    }),
    live: Type.Boolean({ description: 'the build players get now' }),
    files: Type.Integer({ minimum: 0, description: 'files in the build (game.json not counted)' }),
    bytes: Type.Integer({ minimum: 0, description: 'their bytes, unpacked' }),
    uploaded_by: Nullable(Type.String({ description: "the uploader's username; null for a developer key" })),
    uploaded_with: Type.Union(literals(['token', 'key']), {
      description: "token: a member's player token or portal session; key: a developer key with builds:write",
    }),
    created_at: Timestamp,
    released_at: Nullable({ ...Timestamp, description: 'when it first went live; null: never released' }),
    entry: Type.String({ description: 'the page the shell loads' }),
    preview_url: Type.String({
      description: "{public_url}/preview/{slug}/{number}: the build in the real play shell, for the studio's members",
    }),
  },
  { title: 'Build', description: 'a numbered, immutable build of a game' },
);

export const UploadSchema = Type.Object(
  {
    id: Type.String({ description: 'the upload id, for its parts' }),
    size: Type.Integer({ minimum: 0, description: "the zip's size in bytes, as announced" }),
    parts: Type.Array(Type.Object({ part: Type.Integer({ minimum: 1 }), size: Type.Integer({ minimum: 0 }) }), {
      description: 'the parts stored so far, by number: resume by sending the missing ones',
    }),
    received: Type.Integer({ minimum: 0, description: 'bytes stored so far' }),
    max_part_bytes: Type.Integer({ description: `the largest part taken (${MAX_PART_BYTES} bytes)` }),
    expires_at: {
      ...Timestamp,
      description: 'when the unfinished upload and its parts are deleted (builds.upload_ttl_hours)',
    },
  },
  { title: 'Upload', description: 'an upload in parts that becomes a build when completed' },
);

export const StartUploadBody = Type.Object(
  {
    size: Type.Integer({ minimum: 1, description: "the zip's size in bytes (at most builds.max_bytes)" }),
  },
  { additionalProperties: false },
);

export const ReleaseSchema = Type.Object({
  build: BuildSchema,
  previous: Nullable(
    Type.Integer({ description: 'the build that was live before (null: none, or files an operator published)' }),
  ),
  changed: Type.Boolean({ description: 'false when the build was live already' }),
});

export const PreviewSchema = Type.Object({
  session: Type.String({ description: 'the preview token (pv_…), in entry_url' }),
  build: Type.Integer(),
  entry_url: Type.String({ description: "the build's entry file on the game's origin, for the shell's frame" }),
  expires_at: Timestamp,
  cross_origin_isolated: Type.Boolean(),
  game: Type.Object(
    {
      slug: Type.String(),
      name: Type.String(),
      version: Type.String(),
      save_slots: Type.Integer(),
      orientation: Type.Union(literals(ORIENTATIONS)),
      leaderboard: Type.Object({
        enabled: Type.Boolean(),
        order: Type.Union(literals(LEADERBOARD_ORDERS)),
        unit: Type.String(),
      }),
    },
    { description: "the game as this build's game.json describes it (what the SDK's init() tells the game)" },
  ),
});
