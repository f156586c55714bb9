// /v1/studio/games/{slug}/numbers and numbers.csv: a game's numbers per day, for its studio's members and operators.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Nullable, Ok, ok, Timestamp } from '../../http/envelope.js';
import { gameAccess } from './access.js';
import { gameNumbers, NUMBER_SPANS, type NumberSpan, numbersCsv } from './numbers.service.js';
import { GameParams } from './studios.schemas.js';

const tags = ['studios'];

const NumbersQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Union(
        NUMBER_SPANS.map((n) => Type.Literal(String(n))),
        { description: 'how many days, today included (default 30)' },
      ),
    ),
  },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const NumbersDaySchema = Type.Object(
  {
    day: Type.String({ description: 'YYYY-MM-DD in reset_timezone' }),
    plays: Count('plays started (a session continuing the same play in another tab is not a new play)'),
    players: Count('distinct players who started a play'),
    playtime_seconds: Count('seconds credited to the sessions started that day'),
    average_session_seconds: Count('playtime_seconds / plays, rounded (0 without plays)'),
    new_players: Count('players whose first play of the game ever was that day'),
    returning_players: Count('players who had played the game before that day'),
    day1_returned: Nullable(
      Count("of that day's new players, those who played again the next day (null until that day is over)"),
    ),
    day1_retention: Nullable(Fraction('day1_returned / new_players, four decimals (0 without new players)')),
    day7_returned: Nullable(
      Count("of that day's new players, those who played seven days later (null until that day is over)"),
    ),
    day7_retention: Nullable(Fraction('day7_returned / new_players, four decimals')),
    scores_submitted: Count('scores submitted (every submission, on every board)'),
    saves_written: Count(
      'save slots written that day with a state: each slot once a day however often it was saved, on every day it was saved',
    ),
    sessions: Count('sessions started, continuing ones included'),
    limit_ended_sessions: Count('sessions started that day that the free daily limit ended'),
    limit_share: Fraction('limit_ended_sessions / sessions, four decimals'),
    guests: Count("of the day's players, guests (a guest who registered since counts as an account)"),
    accounts: Count("of the day's players, accounts"),
  },
  { title: 'GameNumbersDay' },
);

const GameNumbersSchema = Type.Object(
  {
    game: Type.String(),
    timezone: Type.String({ description: 'reset_timezone: the zone whose calendar days the rows are' }),
    generated_at: Timestamp,
    span: Type.Integer({ description: 'days asked for' }),
    from: Type.String({ description: 'the first day, YYYY-MM-DD' }),
    to: Type.String({ description: 'the last day (today), YYYY-MM-DD' }),
    days: Type.Array(NumbersDaySchema, { description: 'one row per day, oldest first, days without play included' }),
  },
  { title: 'GameNumbers' },
);

const DESCRIPTION = `One row per calendar day of reset_timezone (days of 23 and 25 hours at the clock changes), oldest first, today
included and still counting. Every figure is an aggregate over the game's raw rows (sessions, players, scores, saves) computed
at the call, the same on every instance. A session counts on the day it started, with all its credited seconds.
For the members of the game's studio and the operators; anyone else gets 404, as for a game that does not exist.`;

const spanOf = (days: string | undefined): NumberSpan => Number(days ?? 30) as NumberSpan;

export async function numbersRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get(
    '/v1/studio/games/:slug/numbers',
    {
      config: { auth: 'player', errors: ['not_found', 'validation_failed'] },
      schema: {
        tags,
        operationId: 'getGameNumbers',
        summary: "The game's numbers per day",
        description: DESCRIPTION,
        params: GameParams,
        querystring: NumbersQuery,
        response: { 200: Ok(GameNumbersSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      return ok(await gameNumbers(ctx, game, spanOf(request.query.days)));
    },
  );

  app.get(
    '/v1/studio/games/:slug/numbers.csv',
    {
      config: { auth: 'player', errors: ['not_found', 'validation_failed'] },
      schema: {
        tags,
        operationId: 'getGameNumbersCsv',
        summary: "The game's numbers per day, as CSV",
        description: `The rows of GET /v1/studio/games/{slug}/numbers as CSV (RFC 4180, a header line, CRLF), as an attachment
named \`<slug>-numbers-<days>d.csv\`; an unknown retention is an empty field. The same authorization: 404 for anyone outside the studio.`,
        params: GameParams,
        querystring: NumbersQuery,
        response: {
          200: { description: 'CSV, one line per day', content: { 'text/csv': { schema: Type.String() } } },
        },
      },
    },
    async (request, reply) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug);
      const span = spanOf(request.query.days);
      const csv = numbersCsv(await gameNumbers(ctx, game, span));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${game.slug}-numbers-${span}d.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
