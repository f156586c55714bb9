// TypeBox schemas of the studio routes: studios, members, a studio's view of its games, listing and status bodies.
import { Type } from '@sinclair/typebox';
import { Nullable, RowId, Timestamp } from '../../http/envelope.js';
import { LIMITS, ORIENTATIONS } from '../games/manifest.js';

const literals = (values: readonly string[]) => values.map((v) => Type.Literal(v));

export const StudioParams = Type.Object({
  studio: Type.String({ maxLength: 64, description: 'the studio slug' }),
});
export const GameParams = Type.Object({ slug: Type.String({ maxLength: 64, description: 'the game slug' }) });
export const MemberParams = Type.Object({
  studio: Type.String({ maxLength: 64, description: 'the studio slug' }),
  player_id: RowId('the member'),
});

export const StudioRole = Type.Union(literals(['owner', 'developer']), {
  description: 'owner: everything, and adding and removing members; developer: everything else',
});

export const StudioSchema = Type.Object(
  {
    slug: Type.String({ description: 'identifier used in paths', examples: ['nebula-works'] }),
    name: Type.String({ description: 'display name, at most 80 characters' }),
    status: Type.Union(literals(['active', 'pending']), {
      description: "pending: signed up by itself (studios.self_signup), waiting for an operator's approval",
    }),
    created_at: Timestamp,
  },
  { title: 'Studio', description: 'Studio' },
);

export const MyStudioSchema = Type.Object(
  {
    slug: Type.String(),
    name: Type.String(),
    status: Type.Union(literals(['active', 'pending'])),
    created_at: Timestamp,
    role: StudioRole,
  },
  { title: 'MyStudio', description: 'a studio the caller belongs to, with their role' },
);

export const MemberSchema = Type.Object(
  {
    player_id: Type.Integer(),
    username: Type.String(),
    display_name: Type.String(),
    role: StudioRole,
    since: Timestamp,
  },
  { title: 'StudioMember', description: 'a member of a studio' },
);

export const StudioDetailSchema = Type.Object({
  studio: StudioSchema,
  role: Type.Union(literals(['owner', 'developer', 'operator']), {
    description: "the caller's role (operator: a staff or admin account, who may do what an owner does)",
  }),
  members: Type.Array(MemberSchema),
  games: Type.Array(Type.String(), { description: "the slugs of the studio's games" }),
});

export const SignUpBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80, description: "the studio's name" }),
    slug: Type.Optional(Type.String({ maxLength: 64, description: 'default: made from the name' })),
  },
  { additionalProperties: false },
);

export const AddMemberBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 254, description: 'the username or the email of an active player' }),
    role: Type.Optional({ ...StudioRole, default: 'developer' }),
  },
  { additionalProperties: false },
);

export const RoleBody = Type.Object({ role: StudioRole }, { additionalProperties: false });

export const NewGameBody = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 64, description: "the game's slug (its game.json names it too)" }),
    name: Type.String({ minLength: 1, maxLength: LIMITS.name }),
    category: Type.String({ minLength: 1, maxLength: 32, description: 'lower-case letters, digits and hyphens' }),
  },
  { additionalProperties: false },
);

const ReviewSchema = Type.Object(
  {
    status: Type.Union(literals(['pending', 'rejected'])),
    requested_status: Type.String({ description: 'the status the studio asked for' }),
    note: Nullable(Type.String({ description: "the operator's note on a rejection" })),
    at: Timestamp,
  },
  { title: 'Review', description: "an operator's review of a status change (setting studios.review)" },
);

export const StudioGameSchema = Type.Object(
  {
    slug: Type.String(),
    studio: Nullable(Type.String({ description: "the owning studio's slug (null: the operators')" })),
    name: Type.String(),
    tagline: Nullable(Type.String()),
    description: Nullable(Type.String()),
    category: Type.String(),
    tags: Type.Array(Type.String()),
    orientation: Type.Union(literals(ORIENTATIONS)),
    requires_premium: Type.Boolean(),
    status: Type.Union(literals(['draft', 'beta', 'published', 'retired'])),
    author: Type.String(),
    released_at: Type.String({ description: 'release date YYYY-MM-DD' }),
    version: Nullable(Type.String({ description: "the live build's version; null before the first release" })),
    live_build: Nullable(
      Type.Integer({
        description:
          'the number of the build players get; null before the first release (or files an operator published)',
      }),
    ),
    cover_url: Nullable(Type.String({ description: "the uploaded cover, else the live build's cover file" })),
    screenshots: Type.Array(Type.String(), { description: 'URLs of the uploaded screenshots, in order' }),
    play_url: Type.String(),
    files_url: Type.String({ description: "where the game's files are served (games_url with its slug)" }),
    review: Nullable(ReviewSchema),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'StudioGame', description: 'a game as its studio sees it, whatever its status' },
);

export const ListingBody = Type.Object(
  {
    name: Type.Optional(Type.String({ description: `1 to ${LIMITS.name} characters` })),
    tagline: Type.Optional(
      Nullable(Type.String({ description: `one line, at most ${LIMITS.tagline}; null clears it` })),
    ),
    description: Type.Optional(
      Nullable(Type.String({ description: `at most ${LIMITS.description}, line breaks allowed; null clears it` })),
    ),
    category: Type.Optional(Type.String({ description: 'lower-case letters, digits and hyphens, at most 32' })),
    tags: Type.Optional(
      Type.Array(Type.String(), { description: `at most ${LIMITS.tags} distinct tags of 1 to ${LIMITS.tag}` }),
    ),
    orientation: Type.Optional(Type.Union(literals(ORIENTATIONS))),
    requires_premium: Type.Optional(
      Type.Boolean({ description: 'true: only Unlimited members (and staff) can play it' }),
    ),
  },
  { additionalProperties: false, description: 'the fields to change; the others stay' },
);

export const StatusBody = Type.Object(
  { status: Type.Union(literals(['draft', 'beta', 'published'])) },
  { additionalProperties: false },
);

export const StatusResult = Type.Object({
  game: StudioGameSchema,
  applied: Type.Boolean({ description: "false: the change waits for an operator's review (202)" }),
});

export const ScreenshotParams = Type.Object({
  slug: Type.String({ maxLength: 64 }),
  position: Type.Integer({ minimum: 1, maximum: 100, description: '1 for the first screenshot' }),
});
