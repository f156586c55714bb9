// The queries behind GET /dev/games/{slug}/stats. Each one reads one game's rows through an index; none scans a
// table. Costs are per call: the route is a dashboard read, not a hot path, but it must stay cheap on big tables.
import { sql } from 'kysely';
import type { Executor } from '../../db/connect.js';
import type { TimeWindow } from '../../time.js';

/**
 * Distinct players who ever started a session of the game.
 * Index play_sessions_game_player_idx (game_id, player_id): an index-only scan of the game's entries in player order,
 * equal neighbours collapsed as they come (no sort, no hash, no row reads). Cost O(sessions of the game) index entries:
 * about 55 ms for 300,000 sessions (bench/dev-stats.ts). Written as a count over SELECT DISTINCT because PostgreSQL's
 * COUNT(DISTINCT …) sorts its input again whatever the index order (and spills to disk on a big game).
 */
export async function countPlayersEver(db: Executor, gameId: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb.selectFrom('play_sessions').select('player_id').distinct().where('game_id', '=', gameId).as('p'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Active sessions of the game heard from after `since` (sessions the idle sweep has not closed yet do not count).
 * Index play_sessions_game_live_idx (game_id) WHERE status = 'active': it holds open sessions only, so this reads the
 * game's open sessions, however long its history, and checks each one's last heartbeat in its row (the index leaves
 * last_heartbeat_at out so that a heartbeat changes no index: migration 2026_11_27_1900). `status` is written as a
 * literal: SQLite uses a partial index only when the query repeats its condition literally.
 */
export async function countLiveSessions(db: Executor, gameId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom('play_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('game_id', '=', gameId)
    .where('status', '=', sql.lit('active'))
    .where('last_heartbeat_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PlayCounts {
  plays: number;
  players: number;
}

/**
 * Plays started and distinct players, per window and over all of them, for windows that follow one another
 * (calendar days). A session that continues a play (continues_play = 1: it took over the player's still-active session
 * in another tab or on another device) is not a play. One statement: the inner query reads the span from
 * play_sessions_game_started_play_idx (game_id, started_at, player_id, continues_play) alone (index-only) and groups it
 * by player, counting each player's plays per window;
 * the outer one sums the plays and counts the players with a play in each window. Cost O(sessions started in the span)
 * index entries plus one group per player of the span (a hash aggregate), instead of one sort per COUNT(DISTINCT …).
 */
export async function playsPerWindow(
  db: Executor,
  gameId: number,
  windows: TimeWindow[],
): Promise<{ windows: PlayCounts[]; all: PlayCounts }> {
  const from = Math.min(...windows.map((w) => w.start));
  const to = Math.max(...windows.map((w) => w.end));
  const perPlayer = db
    .selectFrom('play_sessions')
    .select((eb) => [
      'player_id',
      eb.fn.countAll<number>().as('plays'),
      ...windows.map((w, i) =>
        sql<number>`count(case when started_at >= ${w.start} and started_at < ${w.end} then 1 end)`.as(`w${i}`),
      ),
    ])
    .where('game_id', '=', gameId)
    .where('continues_play', '=', 0)
    .where('started_at', '>=', from)
    .where('started_at', '<', to)
    .groupBy('player_id');
  const row = (await db
    .selectFrom(perPlayer.as('p'))
    .select((eb) => [
      eb.fn.countAll<number>().as('players'),
      eb.fn.coalesce(eb.fn.sum<number>('p.plays'), sql<number>`0`).as('plays'),
      ...windows.flatMap((_, i) => [
        sql<number>`coalesce(sum(${sql.ref(`p.w${i}`)}), 0)`.as(`plays_${i}`),
        sql<number>`count(case when ${sql.ref(`p.w${i}`)} > 0 then 1 end)`.as(`players_${i}`),
      ]),
    ])
    .executeTakeFirstOrThrow()) as Record<string, number | string>;
  return {
    windows: windows.map((_, i) => ({ plays: Number(row[`plays_${i}`]), players: Number(row[`players_${i}`]) })),
    all: { plays: Number(row.plays), players: Number(row.players) },
  };
}

export interface SavedSlots {
  slots: number;
  players: number;
  bytes: number;
}

/**
 * Stored states of the game in slots below `slotCount`: how many, of how many players, how many bytes.
 * Index save_states_game_idx (game_id), one row read per slot the game's players ever used (the `state IS NOT NULL`
 * test reads only the row header; the payload itself, stored out of line when large, is not read). Cost O(used slots
 * of the game). A covering index is left out on purpose: on PostgreSQL, an index naming `state` or `size_bytes`
 * would cost every save its in-place (HOT) update.
 */
export async function countSavedSlots(db: Executor, gameId: number, slotCount: number): Promise<SavedSlots> {
  const row = await db
    .selectFrom('save_states')
    .select((eb) => [
      eb.fn.countAll<number>().as('slots'),
      eb.fn.count<number>('player_id').distinct().as('players'),
      eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), sql<number>`0`).as('bytes'),
    ])
    .where('game_id', '=', gameId)
    .where('slot', '<', slotCount)
    .where('state', 'is not', null)
    .executeTakeFirstOrThrow();
  return { slots: Number(row.slots), players: Number(row.players), bytes: Number(row.bytes) };
}

export interface BoardCounts {
  board: string;
  /** the order the board ranks by (a board is kept per order: see scores/boards.ts) */
  order: string;
  /** submissions on the board */
  entries: number;
  /** players with a score on the board */
  players: number;
}

/**
 * Submissions and players per board, from the scores module's all-time boards: leaderboard_bests keeps one row per
 * player and board with the player's number of submissions (`entries`), so nothing reads the submissions themselves.
 * Index leaderboards_key (game_id, board, period, …) for the game's boards, then leaderboard_bests_pk
 * (leaderboard_id, player_id) for each all-time board's rows, one row read each for `entries`.
 * Cost O(players on the game's boards), however many scores they submitted.
 */
export function countBoards(db: Executor, gameId: number): Promise<BoardCounts[]> {
  return db
    .selectFrom('leaderboards as l')
    .innerJoin('leaderboard_bests as b', 'b.leaderboard_id', 'l.id')
    .select((eb) => [
      'l.board',
      'l.sort_order as order',
      eb.fn.coalesce(eb.fn.sum<number>('b.entries'), sql<number>`0`).as('entries'),
      eb.fn.countAll<number>().as('players'),
    ])
    .where('l.game_id', '=', gameId)
    .where('l.period', '=', 'all')
    .groupBy(['l.board', 'l.sort_order'])
    .orderBy('l.board')
    .execute()
    .then((rows) =>
      rows.map((r) => ({ board: r.board, order: r.order, entries: Number(r.entries), players: Number(r.players) })),
    );
}
