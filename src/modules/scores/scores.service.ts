// Score submission (docs/api.md, "Scores and leaderboards") and the player's score history.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { Credential } from '../../http/auth.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { formatTimestamp } from '../../time.js';
import { boardsToWrite } from './boards.js';
import { IDEMPOTENCY_TTL_MS, callerOf, requestFingerprint } from './idempotency.js';
import {
  boardsOfPlayer,
  deleteBests,
  gameBoardsOfPlayer,
  giveBests,
  insertBests,
  keyOfBest,
  lockBests,
  setBest,
  type BestRow,
} from './bests.repository.js';
import { findGameWithBoards, lockGameBoards } from './boards.repository.js';
import { periodKeysAt } from './periods.js';
import { clampReachedAt, compareKeys, normalise, type RankKey } from './count-tree.model.js';
import { TreeChanged, applyKeyChanges, removeKeys, setBestsAndRank, type KeyChange } from './count-tree.js';
import { META_MAX_CHARS, type SubmitBody, type SubmitResult } from './scores.schemas.js';
import {
  claimRequestKey,
  deleteExpiredRequestKeys,
  findListedGame,
  findOwnPlaySession,
  findRequestKey,
  hasPlayed,
  insertScoreLockingBests,
  isActivePlayer,
  moveRequestKeys,
  moveScores,
  recentScoresForGame,
  saveRequestResponse,
} from './scores.repository.js';
import { checkScoreBounds, openScoringGame, type ScoringGame } from './scoring-game.js';

/** A game whose score and leaderboard routes are open: listed (404 not_found) with its leaderboard on (404 leaderboard_disabled). */
export async function scoringGame(ctx: AppContext, slug: string): Promise<ScoringGame> {
  return openScoringGame(await findListedGame(ctx.db, slug));
}

/** The player a submission is for: the caller, or the player a developer key of this game names (docs/api.md, "Scores and leaderboards"). */
async function playerFor(
  ctx: AppContext,
  game: ScoringGame,
  credential: Credential,
  playerId: number | undefined,
): Promise<number> {
  if (credential.kind === 'player') {
    if (playerId !== undefined && playerId !== credential.playerId)
      throw new AppError('forbidden', 'A player token can submit only its own scores');
    return credential.playerId;
  }
  if (playerId === undefined) throw validationFailed({ player_id: 'is required with a developer key' });
  if (!(await isActivePlayer(ctx.db, playerId)) || !(await hasPlayed(ctx.db, playerId, game.id))) {
    throw notFound('No such player of this game');
  }
  return playerId;
}

/** The player stopped being active while the request ran (a deletion asked for, a suspension). */
function playerGone(credential: Credential): AppError {
  return credential.kind === 'player'
    ? new AppError('unauthenticated', 'The account is no longer active: log in again')
    : notFound('No such player of this game');
}

function metaText(meta: Record<string, unknown> | undefined): string | null {
  if (meta === undefined) return null;
  const text = JSON.stringify(meta);
  if ([...text].length > META_MAX_CHARS)
    throw validationFailed({ meta: `must be at most ${META_MAX_CHARS} characters of JSON` });
  return text;
}

const beats = (a: RankKey, b: RankKey) => a.norm < b.norm;

/**
 * The new score's bests rows on each board (all, month, week, day): inserts the player's first ones, and tells which
 * rows it counts on (`counted`, to update) and improves. `locked`: the player's bests rows on those boards, locked in
 * board order (PostgreSQL) with the score's insert. Also returns the player's best before this score on the all-time
 * board, and the moves of the player's key that the count trees need (applyKeyChanges), in board order.
 */
async function fileBests(
  db: Executor,
  boardIds: number[],
  playerId: number,
  score: number,
  key: RankKey,
  now: number,
  locked: BestRow[],
) {
  const newRow = (boardId: number): BestRow => ({
    leaderboard_id: boardId,
    player_id: playerId,
    score,
    norm: key.norm,
    reached_at: key.reachedAt,
    score_id: key.scoreId,
    entries: 1,
    last_played: now,
  });
  let existing = locked;
  const missing = boardIds.filter((id) => !existing.some((r) => r.leaderboard_id === id));
  const inserted = await insertBests(db, missing.map(newRow));
  const raced = missing.filter((id) => !inserted.includes(id));
  if (raced.length) existing = [...existing, ...(await lockBests(db, raced, playerId))];

  const changes: KeyChange[] = inserted.map((boardId) => ({ boardId, to: key }));
  const improved = existing.filter((row) => beats(key, keyOfBest(row)));
  for (const row of improved) changes.push({ boardId: row.leaderboard_id, from: keyOfBest(row), to: key });
  const before = existing.find((r) => r.leaderboard_id === boardIds[0]);
  return {
    before: before ? keyOfBest(before) : undefined,
    counted: existing.map((r) => r.leaderboard_id),
    improved: improved.map((r) => r.leaderboard_id),
    changes: changes.sort((a, b) => a.boardId - b.boardId),
  };
}

const lastCleanup = new WeakMap<AppContext, number>();

/**
 * Deletes expired Idempotency-Key rows at most once a minute per process, in its own statement: expired rows are
 * never replayed anyway (a claim takes them over), this only keeps the table small.
 */
async function forgetExpiredKeys(ctx: AppContext, now: number): Promise<void> {
  if (now - (lastCleanup.get(ctx) ?? -Infinity) < 60_000) return;
  lastCleanup.set(ctx, now);
  await deleteExpiredRequestKeys(ctx.db, now - IDEMPOTENCY_TTL_MS);
}

export interface SubmitInput {
  slug: string;
  credential: Credential;
  body: SubmitBody;
  idempotencyKey?: string;
}

export interface SubmitOutcome {
  result: SubmitResult;
  /** true when this is the stored first response to an Idempotency-Key */
  replayed: boolean;
}

/**
 * Runs a submission's transaction again (up to three times) if PostgreSQL picked it as a deadlock victim. Score
 * writers lock in one order (bests rows, then tree nodes by board and level), so they cannot deadlock each other;
 * this covers whatever else may share those rows one day. The whole transaction is redone, the Idempotency-Key claim
 * included. Once more, and not counted, when the count trees changed under it (TreeChanged): `oneStatement` is then
 * false, and applyKeyChanges moves the trees board by board, which never throws it.
 */
async function retryOnConflict<T>(fn: (oneStatement: boolean) => Promise<T>): Promise<T> {
  let oneStatement = true;
  let deadlocks = 0;
  for (;;) {
    try {
      return await fn(oneStatement);
    } catch (error) {
      if (error instanceof TreeChanged && oneStatement) oneStatement = false;
      else if ((error as { code?: string }).code !== '40P01' || ++deadlocks >= 3) throw error;
    }
  }
}

interface CheckedSubmission {
  game: ScoringGame;
  /** the four boards the score counts on */
  boardIds: number[];
  playerId: number;
  board: string;
  meta: string | null;
  playSessionId: number | null;
}

/**
 * The checks of docs/api.md, "Scores and leaderboards", in the order the README gives, and the boards of the periods of `now` (read with the game;
 * the missing ones are created once the checks pass).
 */
async function checkSubmission(
  ctx: AppContext,
  { slug, credential, body }: SubmitInput,
  now: number,
): Promise<CheckedSubmission> {
  const board = body.board ?? 'main';
  const periods = periodKeysAt(now, ctx.config.reset_timezone);
  const found = await findGameWithBoards(ctx.db, slug, board, periods);
  const game = openScoringGame(found?.game, credential);
  const playerId = await playerFor(ctx, game, credential, body.player_id);
  checkScoreBounds(game, body.score);
  const meta = metaText(body.meta);
  let playSessionId: number | null = null;
  if (body.play_session !== undefined) {
    playSessionId = (await findOwnPlaySession(ctx.db, sha256(body.play_session), playerId, game.id)) ?? null;
    if (playSessionId === null)
      throw new AppError('invalid_play_session', 'play_session is not a session of this player for this game');
  }
  const boardIds = (await boardsToWrite(ctx, found!, board, periods)).map((b) => b.id);
  return { game, boardIds, playerId, board, meta, playSessionId };
}

interface RequestKey {
  caller: string;
  key: string;
  fingerprint: string;
}

/**
 * Claims an Idempotency-Key for this request, or returns the first response to it (422 when the body differs).
 * On PostgreSQL a concurrent duplicate waits in the claim until the first commits, then replays its response.
 */
async function claimOrReplay(db: Executor, request: RequestKey, now: number): Promise<SubmitResult | undefined> {
  if (await claimRequestKey(db, request.caller, request.key, request.fingerprint, now, now - IDEMPOTENCY_TTL_MS))
    return undefined;
  const first = (await findRequestKey(db, request.caller, request.key))!;
  if (first.fingerprint !== request.fingerprint) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was used with another request in the last 24 hours',
    );
  }
  return JSON.parse(first.response) as SubmitResult;
}

/**
 * POST /games/{slug}/scores: stores the submission and updates its four boards in one transaction. On PostgreSQL its
 * statements are: the score's insert with the player's bests rows locked; their update with the rank (one statement:
 * setBestsAndRank); the count trees' nodes, read, then upserted when the player's key moves (every board in one
 * statement); the commit.
 * The count trees are moved last, after the rank is read: their upper nodes are rows every writer of the board
 * locks, so each submission holds them for the fewest round trips (that upsert and the commit). The rank is the same
 * either way: it counts the keys ahead of the player's best (from the tree's nodes and, inside the stop, from the
 * bests rows), and the player's own key, old or new, is never ahead of that best.
 */
export async function submitScore(ctx: AppContext, input: SubmitInput): Promise<SubmitOutcome> {
  const now = ctx.clock.now();
  const { game, boardIds, playerId, board, meta, playSessionId } = await checkSubmission(ctx, input, now);
  const { score } = input.body;
  const request: RequestKey | undefined =
    input.idempotencyKey === undefined
      ? undefined
      : {
          caller: callerOf(input.credential),
          key: input.idempotencyKey,
          fingerprint: requestFingerprint(game.slug, { ...input.body, board }),
        };
  if (request) await forgetExpiredKeys(ctx, now);

  const outcome = await retryOnConflict((oneStatement) =>
    ctx.db.transaction().execute(async (trx): Promise<SubmitOutcome> => {
      const replay = request && (await claimOrReplay(trx, request, now));
      if (replay) return { result: replay, replayed: true };
      const row = {
        game_id: game.id,
        player_id: playerId,
        board,
        score,
        meta,
        play_session_id: playSessionId,
        created_at: now,
      };
      const { scoreId, bests } = await insertScoreLockingBests(trx, row, boardIds);
      // First bests to insert: the player must still be active. An account whose deletion was asked for while the
      // request ran has left the boards and must not come back with this score
      // (docs/api.md, "Accounts and authentication"). Read once the bests rows are locked, after the deletion's commit.
      if (bests.length < boardIds.length && !(await isActivePlayer(trx, playerId))) throw playerGone(input.credential);
      const key: RankKey = { norm: normalise(score, game.leaderboard_order), reachedAt: clampReachedAt(now), scoreId };
      const { before, counted, improved, changes } = await fileBests(trx, boardIds, playerId, score, key, now, bests);
      const personalBest = !before || beats(key, before);
      const bestKey = personalBest ? key : before!;
      const best = { score, norm: key.norm, reached_at: key.reachedAt, score_id: key.scoreId };
      const { rank } = await setBestsAndRank(trx, { counted, improved, playerId, now, best }, boardIds[0]!, bestKey);
      const result: SubmitResult = {
        accepted: true,
        score,
        board,
        rank: { rank, best: normalise(bestKey.norm, game.leaderboard_order) },
        personal_best: personalBest,
      };
      if (request) await saveRequestResponse(trx, request.caller, request.key, JSON.stringify(result));
      // Last: see above.
      await applyKeyChanges(trx, changes, oneStatement);
      return { result, replayed: false };
    }),
  );
  ctx.metrics.scoreSubmissions.inc({ outcome: outcome.replayed ? 'replayed' : 'stored' });
  return outcome;
}

export const parseMeta = (text: string | null) =>
  text === null ? null : (JSON.parse(text) as Record<string, unknown>);

/** GET /games/{slug}/scores/me: the player's last 50 submissions for the game, all boards, newest first. */
export async function myScoresForGame(ctx: AppContext, slug: string, playerId: number) {
  const game = await scoringGame(ctx, slug);
  const rows = await recentScoresForGame(ctx.db, playerId, game.id, 50);
  return {
    scores: rows.map((r) => ({
      id: r.id,
      board: r.board,
      score: Number(r.score),
      meta: parseMeta(r.meta),
      created_at: formatTimestamp(Number(r.created_at)),
    })),
  };
}

/**
 * Takes every key of the player out of the boards' count trees, inside the caller's transaction (an account purge:
 * the bests rows then go with the player row, by cascade). Ranks of everyone else stay exact.
 */
export async function removePlayerFromBoards(trx: Executor, playerId: number): Promise<void> {
  await lockGameBoards(trx, await gameBoardsOfPlayer(trx, playerId));
  const boards = await boardsOfPlayer(trx, playerId);
  if (!boards.length) return;
  const bests = await lockBests(trx, boards, playerId);
  await removeKeys(
    trx,
    bests.map((b) => ({ boardId: b.leaderboard_id, key: keyOfBest(b) })),
  );
}

/**
 * A guest merged into an account, inside the caller's transaction (docs/api.md, "Guests"). On every board where the
 * guest has a best: where the account has none, the guest's row becomes the account's (its key stays in the count
 * tree as it is); where both have one, the account keeps the better key (the earlier on a tie, as ranking does),
 * with both players' entries and the later last score, and the other key leaves the tree. So each affected board
 * loses exactly one key per player the two had in common, and every rank stays exact. Then the submissions and the
 * stored Idempotency-Key answers become the account's. Lock order as a submission: the boards' locks (shared,
 * boards.repository.ts), bests rows by board (the guest's, then the account's), then the tree's nodes (removeKeys).
 */
export async function mergePlayerScores(trx: Executor, fromId: number, toId: number): Promise<{ scoresMoved: number }> {
  await lockGameBoards(trx, await gameBoardsOfPlayer(trx, fromId));
  const boards = await boardsOfPlayer(trx, fromId);
  const guest = await lockBests(trx, boards, fromId);
  const account = new Map((await lockBests(trx, boards, toId)).map((row) => [row.leaderboard_id, row]));
  const given: number[] = [];
  const merged: number[] = [];
  const removals: Array<{ boardId: number; key: RankKey }> = [];
  for (const g of guest) {
    const a = account.get(g.leaderboard_id);
    if (!a) {
      given.push(g.leaderboard_id);
      continue;
    }
    const guestBetter = compareKeys(keyOfBest(g), keyOfBest(a)) < 0;
    const [kept, dropped] = guestBetter ? [g, a] : [a, g];
    await setBest(trx, {
      ...kept,
      player_id: toId,
      entries: Number(a.entries) + Number(g.entries),
      last_played: Math.max(Number(a.last_played), Number(g.last_played)),
    });
    merged.push(g.leaderboard_id);
    removals.push({ boardId: g.leaderboard_id, key: keyOfBest(dropped) });
  }
  await deleteBests(trx, fromId, merged);
  await giveBests(trx, fromId, toId, given);
  if (removals.length) await removeKeys(trx, removals);
  const scoresMoved = await moveScores(trx, fromId, toId);
  await moveRequestKeys(trx, `player:${fromId}`, `player:${toId}`);
  return { scoresMoved };
}
