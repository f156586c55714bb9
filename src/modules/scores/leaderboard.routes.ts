// GET /games/{slug}/leaderboard, …/leaderboard/me, …/leaderboard/seasons and …/leaderboard/boards.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { playerOf } from '../../http/auth.js';
import { Ok, OkMeta, ok } from '../../http/envelope.js';
import { getLeaderboard, getStanding, listBoards } from './leaderboard.service.js';
import { getSeasons } from './seasons.service.js';
import {
  BoardList,
  LeaderboardData,
  LeaderboardMeta,
  LeaderboardQuery,
  SeasonList,
  SeasonsQuery,
  SlugParams,
  StandingQuery,
  StandingResult,
} from './scores.schemas.js';

const RANKING =
  "Each player appears once, with their best score on the board in the period, ordered by the game's leaderboard order; a tie goes to whoever " +
  'reached that best first. Ranks are 1..total and unique. Periods are the calendar day, ISO week (Monday first) and month in reset_timezone, or all.';

export async function leaderboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/games/:slug/leaderboard',
    {
      schema: {
        tags: ['scores'],
        operationId: 'getLeaderboard',
        summary: 'A page of a leaderboard',
        description:
          `${RANKING} \`limit\` 1..100 (default 10), \`offset\` ≥ 0 (default 0). Called as a player, \`data.me\` gives the caller's rank and best ` +
          '(both null without a score). `around=me` (player only: 401 without a credential, 403 with a developer key) returns the page centred on ' +
          'the player, kept within the board, with its offset in meta.offset. `at=YYYY-MM-DD` reads the day, week or month holding that date. ' +
          '`season=N` reads an ended season of the board: its all-time standings with the ranks as they stood when it ended (period all, no `at`; ' +
          "meta.season says which); the live season's number reads the live board; a later number is 404 not_found. " +
          '404 leaderboard_disabled when the game has no leaderboard.',
        params: SlugParams,
        querystring: LeaderboardQuery,
        response: { 200: OkMeta(LeaderboardData, LeaderboardMeta) },
      },
      config: { auth: 'optional', errors: ['not_found', 'leaderboard_disabled', 'forbidden'] },
    },
    async (request) => {
      const { data, meta } = await getLeaderboard(app.ctx, request.params.slug, request.query, request.credential);
      return ok(data, meta);
    },
  );

  app.get(
    '/v1/games/:slug/leaderboard/me',
    {
      schema: {
        tags: ['scores'],
        operationId: 'getLeaderboardStanding',
        summary: "The player's standing on a leaderboard",
        description: `${RANKING} \`rank\` and \`best\` are null and \`entries\` 0 without a score in the period. \`at\` as on the leaderboard.`,
        params: SlugParams,
        querystring: StandingQuery,
        response: { 200: Ok(StandingResult) },
      },
      config: { auth: 'player', errors: ['not_found', 'leaderboard_disabled'] },
    },
    async (request) => ok(await getStanding(app.ctx, request.params.slug, playerOf(request).playerId, request.query)),
  );

  app.get(
    '/v1/games/:slug/leaderboard/seasons',
    {
      schema: {
        tags: ['scores'],
        operationId: 'listBoardSeasons',
        summary: "A board's seasons",
        description:
          "The live season's number and start, and the board's ended seasons, newest first (read one with GET …/leaderboard?season=N). " +
          'A board has one season until a studio member ends it. 404 leaderboard_disabled when the game has no leaderboard.',
        params: SlugParams,
        querystring: SeasonsQuery,
        response: { 200: Ok(SeasonList) },
      },
      config: { auth: 'none', errors: ['not_found', 'leaderboard_disabled'] },
    },
    async (request) => ok(await getSeasons(app.ctx, request.params.slug, request.query.board)),
  );

  app.get(
    '/v1/games/:slug/leaderboard/boards',
    {
      schema: {
        tags: ['scores'],
        operationId: 'listLeaderboardBoards',
        summary: "The game's boards",
        description:
          'The names of the boards a leaderboard view can offer: `main` first (the default board, listed even before its first score), then every ' +
          'other board that has a score (boards exist from their first score), by name, at most 100. 404 leaderboard_disabled when the game has no leaderboard.',
        params: SlugParams,
        response: { 200: Ok(BoardList) },
      },
      config: { auth: 'none', errors: ['not_found', 'leaderboard_disabled'] },
    },
    async (request) => ok(await listBoards(app.ctx, request.params.slug)),
  );
}
