// The statistics a studio sees for its game (GET /dev/games/{slug}/stats). Every field is documented here: this is the contract.
import { Type, type Static } from '@sinclair/typebox';
import { DateString, Timestamp } from '../../http/envelope.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const date = (description: string) => Type.String({ ...DateString, description });

const DayStats = Type.Object(
  {
    day: date('the calendar day, YYYY-MM-DD in reset_timezone'),
    plays: count('plays started that day (see plays)'),
    players: count('distinct players who started a play that day'),
  },
  { description: 'One calendar day in reset_timezone (midnight to midnight, 23 or 25 hours on clock changes)' },
);

export const GameStats = Type.Object(
  {
    game: Type.String({ description: 'game slug' }),
    generated_at: Type.String({
      ...Timestamp,
      description: 'when the numbers were read: timestamp YYYY-MM-DD HH:MM:SS (UTC)',
    }),
    timezone: Type.String({
      description: 'reset_timezone, the IANA zone whose midnights bound `today`, `last_7_days` and `days`',
      examples: ['Europe/Berlin'],
    }),
    players: count('distinct players who have ever started a play session of the game'),
    plays: count(
      "plays ever started (the same number as the Game's stats.plays): play sessions started, except a session that took over the same player's still-active session of the game (a second tab, another device), which continues that play",
    ),
    playtime_seconds: count(
      "play time credited to the game's sessions, all players, in seconds (heartbeats and ends credit it; time past a free player's daily allowance is not credited)",
    ),
    playtime_hours: Type.Number({
      minimum: 0,
      description: "playtime_seconds in hours, one decimal (the Game's stats.playtime_hours)",
    }),
    active_sessions: count(
      'play sessions running now: active and heard from (start or heartbeat) within session_idle_timeout seconds. A player has at most one per game, so this is also the players in the game now',
    ),
    today: Type.Object(
      {
        day: date('today, YYYY-MM-DD in reset_timezone'),
        plays: count('plays started today'),
        players: count('distinct players who started a play today'),
      },
      { description: 'since midnight in reset_timezone' },
    ),
    last_7_days: Type.Object(
      {
        from: date('the first of the seven days (six days before today)'),
        to: date('the last of the seven days: today'),
        plays: count('plays started over the seven days'),
        players: count(
          'distinct players who started a play over the seven days (a player of several days counts once)',
        ),
      },
      { description: 'today and the six calendar days before it, in reset_timezone' },
    ),
    days: Type.Array(DayStats, {
      minItems: 7,
      maxItems: 7,
      description: 'the seven days of last_7_days one by one, newest (today) first, days without play included',
    }),
    scores: Type.Object(
      {
        leaderboard_enabled: Type.Boolean({
          description:
            "the game's leaderboard.enabled; when false, new scores are refused (404 leaderboard_disabled) and the boards below hold the scores sent before",
        }),
        submitted: count(
          'scores ever submitted, all boards and players (a replay of an Idempotency-Key stores nothing and is not counted)',
        ),
        boards: Type.Array(
          Type.Object(
            {
              board: Type.String({ description: 'board name (`main` unless the game sends others)' }),
              entries: count('scores submitted on the board'),
              players: count(
                'distinct players with a score on the board (the ranked players of its all-time leaderboard)',
              ),
            },
            { description: 'one board of the game' },
          ),
          { description: 'every board that has a score, by name' },
        ),
      },
      { description: 'scores and leaderboards of the game, all time' },
    ),
    saves: Type.Object(
      {
        save_slots: count("slots each player has in this game (the game's save_slots)"),
        slots_in_use: count(
          'slots holding a state, all players together (deleted states and slots beyond save_slots do not count)',
        ),
        players: count('distinct players with at least one state saved'),
        size_bytes: count('sum of size_bytes of those states: the JSON text stored'),
      },
      { description: 'save states of the game' },
    ),
  },
  { description: 'Statistics of a game for its studio' },
);
export type GameStats = Static<typeof GameStats>;
