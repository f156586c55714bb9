// TypeBox schemas of the catalogue routes: the Game object and the listing's meta.
import { Type, type Static } from '@sinclair/typebox';
import { DateString, Nullable } from '../../http/envelope.js';
import { GAME_STATUSES, LEADERBOARD_ORDERS, LIMITS, ORIENTATIONS } from './manifest.js';

const literals = (values: readonly string[]) => values.map((v) => Type.Literal(v));

export const RatingValueSchema = Type.Union([Type.Literal('up'), Type.Literal('down')], {
  description: 'a thumbs up or a thumbs down',
});
export type RatingValue = Static<typeof RatingValueSchema>;

export const GameRatingSchema = Type.Object(
  {
    up: Type.Integer({ minimum: 0, description: 'thumbs up given to the game' }),
    down: Type.Integer({ minimum: 0, description: 'thumbs down given to the game' }),
    percent: Nullable(
      Type.Integer({
        minimum: 0,
        maximum: 100,
        description:
          'the share of thumbs up, rounded to a whole percent; null while the game has fewer votes than the setting rating_min_votes (10 by default)',
      }),
    ),
  },
  {
    title: 'GameRating',
    description:
      "the players' thumbs up and down on the game (on GET /games/{slug} only, and the rating routes' answers)",
  },
);
export type GameRating = Static<typeof GameRatingSchema>;

export const GameSchema = Type.Object(
  {
    slug: Type.String({
      description: 'identifier used in paths: lower-case letters, digits and hyphens, at most 64',
      examples: ['orbit-dash'],
    }),
    name: Type.String({ description: `display name, at most ${LIMITS.name} characters` }),
    tagline: Nullable(Type.String({ description: `one line, at most ${LIMITS.tagline} characters` })),
    description: Nullable(
      Type.String({ description: `longer text, at most ${LIMITS.description} characters; may hold line breaks` }),
    ),
    category: Type.String({
      description: 'one category, lower-case letters, digits and hyphens (GET /games?category=)',
      examples: ['arcade'],
    }),
    tags: Type.Array(Type.String(), { description: `at most ${LIMITS.tags} free-form tags, matched by q` }),
    version: Type.String({ description: 'the game version, a semantic version (semver.org)', examples: ['1.4.0'] }),
    orientation: Type.Union(literals(ORIENTATIONS), { description: 'screen orientation the game is made for' }),
    players: Type.Object(
      {
        min: Type.Integer({ minimum: 1, description: 'fewest players' }),
        max: Type.Integer({ minimum: 1, description: 'most players (at least min)' }),
      },
      { description: 'number of players' },
    ),
    leaderboard: Type.Object(
      {
        enabled: Type.Boolean({
          description: 'false: the score and leaderboard routes answer 404 leaderboard_disabled',
        }),
        order: Type.Union(literals(LEADERBOARD_ORDERS), {
          description: 'desc: a higher score is better; asc: a lower one (times)',
        }),
        unit: Type.String({ description: 'what a score counts, shown beside it', examples: ['points', 'seconds'] }),
      },
      { description: 'how the game ranks scores' },
    ),
    save_slots: Type.Integer({
      minimum: 0,
      maximum: LIMITS.save_slots,
      description: 'number of save slots; states use slots 0 to save_slots-1',
    }),
    requires_premium: Type.Boolean({ description: 'true: only Unlimited members (and staff) can launch it' }),
    status: Type.Union(literals(GAME_STATUSES.filter((s) => s === 'published' || s === 'beta')), {
      description: 'published or beta (draft and retired games are not visible: 404)',
    }),
    author: Type.String({ description: 'who made the game' }),
    released_at: { ...DateString, description: 'release date YYYY-MM-DD' },
    cover_url: Type.String({
      description:
        "URL of the cover image inside the game files, on the game's own origin (setting games_url), or under the public base assets_url when the deployment sets one; it names the file set, so its bytes never change and it may be cached",
    }),
    play_url: Type.String({ description: 'the play shell: {public_url}/play/{slug}' }),
    stats: Type.Object(
      {
        plays: Type.Integer({
          description:
            "plays started: play sessions started, except one that took over the same player's still-active session of the game (a second tab, another device)",
        }),
        playtime_hours: Type.Number({ description: 'credited play time over all sessions, in hours, one decimal' }),
      },
      { description: 'counted by the play sessions' },
    ),
    screenshots: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "present on GET /games/{slug} only: the URLs of the listing's screenshots (WebP, at most 1920 pixels on the longer side), in their order",
      }),
    ),
    rating: Type.Optional(GameRatingSchema),
    my_rating: Type.Optional(
      Nullable(
        Type.Union([Type.Literal('up'), Type.Literal('down')], {
          description:
            "present on GET /games/{slug} with a player credential only: the player's own vote, null when none",
        }),
      ),
    ),
    featured: Type.Optional(
      Type.Literal(true, {
        description: 'present (true) only for a game an operator features on the home page',
      }),
    ),
    is_favorite: Type.Optional(
      Type.Boolean({
        description: 'present only when called with a player credential: whether the player has marked it',
      }),
    ),
  },
  { title: 'Game', description: 'Game' },
);

export type Game = Static<typeof GameSchema>;

/** The orders GET /games offers (`sort`); the first is the default. */
export const GAME_SORTS = ['popular', 'new', 'name', 'relevance'] as const;
export type GameSort = (typeof GAME_SORTS)[number];

export const GameListQuery = Type.Object({
  sort: Type.Optional(
    Type.Union(
      [Type.Literal('popular'), Type.Literal('new'), Type.Literal('name'), Type.Literal('relevance')] satisfies Array<{
        const: GameSort;
      }>,
      {
        description:
          'the order of the list: `relevance` (the default with `q`) the best match for `q` first (a match in the name or ' +
          'tagline before one in the tags, author or description; without `q`, as `popular`), then most played; ' +
          '`popular` (the default without `q`) most played first (stats.plays), then by name; `new` the game first published ' +
          'on this platform most recently first (the date of its first publish; a new version does not move it), then by released_at, ' +
          'newest first, then by name; `name` A to Z by name. Names compare ignoring case and accents, numbers by value ' +
          '("Game 2" before "Game 10"). Any other value is 422 validation_failed',
      },
    ),
  ),
  category: Type.Optional(
    Type.String({ maxLength: 32, description: 'only games of this category (exact, case-insensitive)' }),
  ),
  featured: Type.Optional(
    Type.Boolean({
      description:
        'true: only the games an operator features on the home page, the most recently featured first unless `sort` is given',
    }),
  ),
  q: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'search: games where every word of this text is found in the name, tagline, description, tags or author, ignoring ' +
        'case (Unicode), inside a word or at its start; a word of four letters or more also matches with one typo (two ' +
        'from eight letters: a letter missing, added, changed or two swapped); % and _ are plain characters',
    }),
  ),
});

export const GameListMeta = Type.Object({
  count: Type.Integer({ description: 'number of games in data.games' }),
  categories: Type.Record(Type.String(), Type.Integer(), {
    description:
      'for each category, the listed games that match q, counted before the category filter (so a UI can show every category with its count)',
  }),
});

export const SlugParams = Type.Object({ slug: Type.String({ description: 'the game slug' }) });

export const FavoriteSchema = Type.Object({
  is_favorite: Type.Boolean({ description: "whether the game is now among the player's favourites" }),
});

export const RelatedQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 12, default: 6, description: 'how many games at most' }),
});

export const RatingBody = Type.Object(
  { value: RatingValueSchema },
  { additionalProperties: false, description: 'the vote' },
);

export const RatingResultSchema = Type.Object({
  rating: GameRatingSchema,
  my_rating: Nullable(
    Type.Union([Type.Literal('up'), Type.Literal('down')], { description: "the player's vote now, null when none" }),
  ),
});
