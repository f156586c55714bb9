// TypeBox schemas of the score and leaderboard routes: validation, response serialisation and the OpenAPI document.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, RowId } from '../../http/envelope.js';

export const BOARD_PATTERN = '^[a-z0-9_-]{1,40}$';
export const META_MAX_CHARS = 500;
export const LIMIT_MAX = 100;
export const OFFSET_MAX = 1_000_000_000;

const Board = Type.String({
  pattern: BOARD_PATTERN,
  default: 'main',
  description: 'board name, `^[a-z0-9_-]{1,40}$`; a game can have several boards, each exists from its first score',
});
const Period = Type.Union([Type.Literal('all'), Type.Literal('month'), Type.Literal('week'), Type.Literal('day')], {
  default: 'all',
  description: 'all time, or the calendar month, ISO week (Monday first) or day in reset_timezone',
});
const Slug = Type.String({ description: 'the game slug', examples: ['star-hopper'] });
const CreatedAt = Type.String({ description: 'when it was submitted: timestamp YYYY-MM-DD HH:MM:SS (UTC)' });
const Meta = Nullable(
  Type.Record(Type.String(), Type.Unknown(), { description: 'the JSON object sent with the score' }),
);

export const SlugParams = Type.Object({ slug: Type.String({ maxLength: 200, description: 'game slug' }) });

export const SubmitBody = Type.Object(
  {
    score: Type.Integer({
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      description:
        "the score, a safe integer (|score| ≤ 2^53 − 1), within the game's bounds when it declares them (game.json leaderboard.min and max), else 422 score_out_of_range",
    }),
    board: Type.Optional(Board),
    meta: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: `a JSON object stored with the score; its JSON text is at most ${META_MAX_CHARS} characters`,
      }),
    ),
    play_session: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'token of a play session of this player for this game (active or ended); else 422 invalid_play_session',
      }),
    ),
    player_id: Type.Optional(
      RowId(
        "the player the score is for: required with a developer key; with a player credential it must be the caller's own id (else 403)",
      ),
    ),
  },
  { additionalProperties: false },
);
export type SubmitBody = Static<typeof SubmitBody>;

export const SubmitHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'the same key from the same caller within 24 hours returns the first 201 response and stores nothing; with another body it is 422 idempotency_key_reused',
    }),
  ),
});

export const Standing = Type.Object(
  {
    rank: Nullable(
      Type.Integer({ minimum: 1, description: "the player's rank, 1 is first; null without a score in the period" }),
    ),
    best: Nullable(Type.Integer({ description: "the player's best score in the period; null without a score" })),
  },
  { description: "the calling player's place on the board" },
);

export const SubmitResult = Type.Object(
  {
    accepted: Type.Literal(true, { description: 'always true: every submission is stored' }),
    score: Type.Integer({ description: 'the submitted score' }),
    board: Type.String({ description: 'the board it was filed on' }),
    rank: Type.Object(
      {
        rank: Type.Integer({ minimum: 1, description: "the player's all-time rank on the board after this score" }),
        best: Type.Integer({ description: "the player's all-time best on the board after this score" }),
      },
      { description: 'standing for period all' },
    ),
    personal_best: Type.Boolean({
      description: "true when the score beats the player's earlier best on this board (a first score is one)",
    }),
  },
  { title: 'SubmitScoreResult', description: 'the stored score and where it puts the player' },
);
export type SubmitResult = Static<typeof SubmitResult>;

export const LeaderboardQuery = Type.Object({
  board: Board,
  period: Period,
  limit: Type.Integer({ minimum: 1, maximum: LIMIT_MAX, default: 10, description: 'rows per page, 1 to 100' }),
  offset: Type.Integer({
    minimum: 0,
    maximum: OFFSET_MAX,
    default: 0,
    description: 'rows to skip; replaced by around=me',
  }),
  around: Type.Optional(
    Type.Literal('me', {
      description:
        'player credential only: the page of `limit` rows centred on the player (real offset in meta.offset); without a score in the period, the page at `offset`',
    }),
  ),
  at: Type.Optional(
    Type.String({
      description: 'date YYYY-MM-DD in reset_timezone: read the day, week or month holding it (ignored for period all)',
      examples: ['2026-11-16'],
    }),
  ),
  season: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description:
        "a season of the board (1, 2, …): an ended season's all-time standings as they stood when it ended; the live season's number reads the live board",
    }),
  ),
});
export type LeaderboardQuery = Static<typeof LeaderboardQuery>;

export const StandingQuery = Type.Object({
  board: Board,
  period: Period,
  at: Type.Optional(
    Type.String({ description: 'date YYYY-MM-DD in reset_timezone: the period holding it', examples: ['2026-11-16'] }),
  ),
});
export type StandingQuery = Static<typeof StandingQuery>;

export const PublicPlayer = Type.Object({
  username: Type.String({ description: "the player's unique username" }),
  display_name: Type.String({ description: 'the name the player shows' }),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  avatar_url: Type.String({ description: 'URL of the avatar, or of the generated initials avatar' }),
  guest: Type.Optional(
    Type.Literal(true, {
      description:
        'present (true) only for a guest player: its display name is generated ("Guest 7F3K") and it has no public profile to link to',
    }),
  ),
});

export const LeaderboardRow = Type.Object({
  rank: Type.Integer({
    minimum: 1,
    description: "unique, 1..total: best first in the game's order, a tie to whoever reached that best first",
  }),
  score: Type.Integer({ description: "the player's best on the board in the period" }),
  entries: Type.Integer({ description: "the player's submissions on the board in the period" }),
  last_played: Type.String({
    description:
      "time of the player's latest submission on the board in the period: timestamp YYYY-MM-DD HH:MM:SS (UTC)",
  }),
  player: Type.Object(PublicPlayer.properties, { description: 'public fields of the player' }),
});
export type LeaderboardRow = Static<typeof LeaderboardRow>;

export const LeaderboardData = Type.Object({
  leaderboard: Type.Array(LeaderboardRow, { description: 'the page of rows, best first' }),
  me: Type.Optional(Standing),
});

/** A row as the studio console reads it (GET /v1/studio/games/{slug}/leaderboard): what a removal names. */
export const StudioLeaderboardRow = Type.Object(
  {
    ...LeaderboardRow.properties,
    score_id: Type.Integer({ description: "the submission holding the player's best in the period" }),
    player_id: Type.Integer({ description: "the player's id" }),
  },
  { title: 'StudioLeaderboardRow' },
);

export const StudioLeaderboardData = Type.Object({
  leaderboard: Type.Array(StudioLeaderboardRow, { description: 'the page of rows, best first' }),
});

export const LeaderboardMeta = Type.Object({
  game: Slug,
  board: Type.String({ description: 'the board read' }),
  period: Type.String({ description: 'all, month, week or day' }),
  order: Type.String({ description: 'desc (higher is better) or asc (lower is better)' }),
  unit: Type.String({ description: 'unit of the scores, e.g. points or ms' }),
  limit: Type.Integer({ description: 'rows asked for' }),
  offset: Type.Integer({ description: 'offset of the first row (with around=me, the offset that centres the player)' }),
  total: Type.Integer({ description: 'ranked players on the board in the period' }),
  season: Type.Optional(Type.Integer({ description: 'the season read, when `season` was given' })),
});

/** Boards listed by GET …/leaderboard/boards at most: a board exists from its first score, under any name a player sends. */
export const BOARDS_MAX = 100;

export const BoardList = Type.Object({
  boards: Type.Array(Type.String({ description: 'a board name' }), {
    maxItems: BOARDS_MAX,
    description: `the game's boards for a board picker: \`main\` always first (even before its first score), then every other board that has a score, by name; at most ${BOARDS_MAX}`,
  }),
});

const SeasonSchema = Type.Object(
  {
    season: Type.Integer({ description: 'the season number, from 1' }),
    started_at: Nullable(
      Type.String({
        description: 'when it began (YYYY-MM-DD HH:MM:SS UTC); null for the first, begun with the first score',
      }),
    ),
    ended_at: Type.String({ description: 'when a studio member ended it (YYYY-MM-DD HH:MM:SS UTC)' }),
    players: Type.Integer({ description: 'players ranked when it ended' }),
  },
  { title: 'BoardSeason' },
);

export const SeasonsQuery = Type.Object({ board: Board });

export const SeasonList = Type.Object({
  board: Type.String({ description: 'the board' }),
  live_season: Type.Integer({ description: "the live season's number" }),
  live_since: Nullable(Type.String({ description: 'when the live season began; null while it is the first' })),
  seasons: Type.Array(SeasonSchema, { description: 'the ended seasons, newest first' }),
});

export const NewSeasonResult = Type.Object(
  {
    board: Type.String({ description: 'the board' }),
    ended: SeasonSchema,
    live_season: Type.Integer({ description: 'the season that begins now, with every period of the board empty' }),
  },
  { title: 'NewSeason' },
);

export const StandingResult = Type.Object({
  board: Type.String({ description: 'the board read' }),
  period: Type.String({ description: 'all, month, week or day' }),
  rank: Nullable(Type.Integer({ minimum: 1, description: 'null without a score in the period' })),
  best: Nullable(Type.Integer({ description: 'null without a score in the period' })),
  entries: Type.Integer({ description: "the player's submissions on the board in the period" }),
});

export const GameScore = Type.Object({
  id: Type.Integer({ description: 'id of the submission' }),
  board: Type.String({ description: 'the board it was filed on' }),
  score: Type.Integer({ description: 'the score submitted' }),
  meta: Meta,
  created_at: CreatedAt,
});

export const GameScores = Type.Object({
  scores: Type.Array(GameScore, {
    description: "the player's last 50 submissions for the game, all boards, newest first",
  }),
});

export const BestEntry = Type.Object({
  game: Slug,
  game_name: Type.String({ description: "the game's name" }),
  board: Type.String({ description: 'the board' }),
  best: Type.Integer({ description: 'all-time best on the board' }),
  unit: Type.String({ description: "unit of the game's scores" }),
  rank: Type.Integer({ minimum: 1, description: 'all-time rank on the board' }),
});

export const RecentEntry = Type.Object({
  game: Slug,
  game_name: Type.String({ description: "the game's name" }),
  board: Type.String({ description: 'the board it was filed on' }),
  score: Type.Integer({ description: 'the score submitted' }),
  meta: Meta,
  created_at: CreatedAt,
});

export const MyScores = Type.Object({
  best: Type.Array(BestEntry, {
    description: 'one entry per game and board the player has scored on, by game name then board',
  }),
  recent: Type.Array(RecentEntry, { description: 'the 20 most recent submissions, newest first' }),
});

/** A best-score entry of a public profile (board main, all time). */
export const ProfileBestScore = Type.Object({
  game: Slug,
  game_name: Type.String({ description: "the game's name" }),
  best: Type.Integer({ description: 'all-time best on the board main' }),
  unit: Type.String({ description: "unit of the game's scores" }),
  rank: Type.Integer({ description: 'the rank of that best on the all-time board main, from 1' }),
  cover_url: Type.Union([Type.String(), Type.Null()], {
    description: "the game's cover; null before its first release",
  }),
});
export type ProfileBestScore = Static<typeof ProfileBestScore>;
