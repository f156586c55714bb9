// The saves and scores a game makes in preview: the live rules (slots and leaderboard of the build previewed, the
// 262,144-byte limit, expected_version), kept in tables of their own so that no live save or ranking is touched.
import type { AppContext } from '../../context.js';
import { uniqueViolation } from '../../db/unique.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { publicPlayer } from '../scores/row-player.js';
import { stringifyJson, utf8Length } from '../states/json-text.js';
import { MAX_STATE_BYTES } from '../states/states.schemas.js';
import {
  deletePreviewData,
  deletePreviewState,
  findPreviewScores,
  findPreviewState,
  findPreviewStates,
  insertPreviewScore,
  insertPreviewState,
  type PreviewScoreRow,
  type PreviewSlot,
  type PreviewStateRow,
  updatePreviewState,
} from './preview-data.repository.js';

export interface BuildRules {
  save_slots: number;
  leaderboard: { enabled: boolean; order: 'asc' | 'desc'; unit: string };
}

const summary = (row: PreviewStateRow) => ({
  slot: row.slot,
  label: row.label,
  version: row.version,
  size_bytes: row.size_bytes,
  created_at: formatTimestamp(Number(row.created_at)),
  updated_at: formatTimestamp(Number(row.updated_at)),
});

export function checkSlot(rules: BuildRules, slot: number): void {
  if (slot >= 0 && slot < rules.save_slots) return;
  throw validationFailed({
    slot:
      rules.save_slots === 0 ? 'this build has no save slots' : `must be an integer from 0 to ${rules.save_slots - 1}`,
  });
}

export async function listPreviewStates(ctx: AppContext, playerId: number, gameId: number) {
  return (await findPreviewStates(ctx.db, playerId, gameId)).map(summary);
}

export async function getPreviewState(ctx: AppContext, key: PreviewSlot) {
  const row = await findPreviewState(ctx.db, key);
  if (!row) throw notFound('This slot is empty');
  return { ...summary(row), state: JSON.parse(row.state) as unknown };
}

function encode(state: unknown): { text: string; size: number } {
  const text = stringifyJson(state);
  if (text === undefined) throw validationFailed({ state: 'is required' });
  const size = utf8Length(text);
  if (size > MAX_STATE_BYTES)
    throw new AppError(
      'state_too_large',
      `The state is ${size} bytes of JSON; at most ${MAX_STATE_BYTES} are allowed`,
      {
        size_bytes: size,
        max_bytes: MAX_STATE_BYTES,
      },
    );
  return { text, size };
}

const conflict = (current: number) =>
  new AppError('version_conflict', 'The slot was saved meanwhile', { current_version: current });

/** Saves under the version rule (expected_version: 0 only into an empty slot, n only over version n), as live saves do. */
export async function putPreviewState(
  ctx: AppContext,
  key: PreviewSlot,
  input: { state: unknown; label?: string | null; expected_version?: number },
) {
  const { text, size } = encode(input.state);
  const now = ctx.clock.now();
  const write = ctx.db.transaction().execute(async (trx) => {
    const row = await findPreviewState(trx, key, true);
    const current = row?.version ?? 0;
    if (input.expected_version !== undefined && input.expected_version !== current) throw conflict(current);
    const label = input.label === undefined ? (row?.label ?? null) : input.label;
    const values = { version: current + 1, label, state: text, size_bytes: size, updated_at: now };
    if (row) await updatePreviewState(trx, key, values);
    else
      await insertPreviewState(trx, {
        player_id: key.playerId,
        game_id: key.gameId,
        slot: key.slot,
        ...values,
        created_at: now,
      });
    return { slot: key.slot, version: current + 1, size_bytes: size, created: !row };
  });
  // Two first saves of one slot at once on PostgreSQL: the primary key lets one in, the other is a conflict.
  return write.catch(async (error: unknown) => {
    if (!uniqueViolation(error)) throw error;
    throw conflict((await findPreviewState(ctx.db, key))?.version ?? 0);
  });
}

export async function deletePreviewSlot(ctx: AppContext, key: PreviewSlot) {
  return { deleted: await deletePreviewState(ctx.db, key) };
}

interface Ranked {
  row: PreviewScoreRow;
  entries: number;
  last: number;
}

/** Each player's best on the board (a tie goes to whoever reached it first), best first: the live ranking rule. */
function rank(rows: PreviewScoreRow[], order: 'asc' | 'desc'): Ranked[] {
  const better = (a: number, b: number) => (order === 'desc' ? a > b : a < b);
  const best = new Map<number, Ranked>();
  for (const row of rows) {
    const seen = best.get(row.player_id);
    if (!seen) best.set(row.player_id, { row, entries: 1, last: Number(row.created_at) });
    else {
      seen.entries++;
      seen.last = Math.max(seen.last, Number(row.created_at));
      if (better(Number(row.score), Number(seen.row.score))) seen.row = row;
    }
  }
  return [...best.values()].sort(
    (a, b) =>
      (order === 'desc' ? Number(b.row.score) - Number(a.row.score) : Number(a.row.score) - Number(b.row.score)) ||
      Number(a.row.created_at) - Number(b.row.created_at) ||
      a.row.id - b.row.id,
  );
}

function openBoard(rules: BuildRules): void {
  if (!rules.leaderboard.enabled) throw new AppError('leaderboard_disabled', 'This build has no leaderboard');
}

export async function submitPreviewScore(
  ctx: AppContext,
  rules: BuildRules,
  key: { playerId: number; gameId: number },
  input: { score: number; board: string; meta?: Record<string, unknown> },
) {
  openBoard(rules);
  const meta = input.meta === undefined ? null : JSON.stringify(input.meta);
  if (meta !== null && meta.length > 500) throw validationFailed({ meta: 'must be at most 500 characters of JSON' });
  const earlier = rank(await findPreviewScores(ctx.db, key.gameId, input.board), rules.leaderboard.order).find(
    (r) => r.row.player_id === key.playerId,
  );
  await insertPreviewScore(ctx.db, {
    game_id: key.gameId,
    player_id: key.playerId,
    board: input.board,
    score: input.score,
    meta,
    created_at: ctx.clock.now(),
  });
  const ranked = rank(await findPreviewScores(ctx.db, key.gameId, input.board), rules.leaderboard.order);
  const position = ranked.findIndex((r) => r.row.player_id === key.playerId);
  const personalBest =
    !earlier ||
    (rules.leaderboard.order === 'desc'
      ? input.score > Number(earlier.row.score)
      : input.score < Number(earlier.row.score));
  return {
    accepted: true as const,
    score: input.score,
    board: input.board,
    rank: { rank: position + 1, best: Number(ranked[position]!.row.score) },
    personal_best: personalBest,
  };
}

export async function previewLeaderboard(
  ctx: AppContext,
  rules: BuildRules,
  key: { playerId: number; gameId: number },
  query: { board: string; limit: number; offset: number },
) {
  openBoard(rules);
  const ranked = rank(await findPreviewScores(ctx.db, key.gameId, query.board), rules.leaderboard.order);
  const mine = ranked.findIndex((r) => r.row.player_id === key.playerId);
  const rows = ranked.slice(query.offset, query.offset + query.limit).map((r, i) => ({
    rank: query.offset + i + 1,
    score: Number(r.row.score),
    entries: r.entries,
    last_played: formatTimestamp(r.last),
    player: publicPlayer(ctx.config, r.row),
  }));
  return {
    data: {
      leaderboard: rows,
      me: mine === -1 ? { rank: null, best: null } : { rank: mine + 1, best: Number(ranked[mine]!.row.score) },
    },
    meta: {
      game: '',
      board: query.board,
      period: 'all' as const,
      order: rules.leaderboard.order,
      unit: rules.leaderboard.unit,
      limit: query.limit,
      offset: query.offset,
      total: ranked.length,
    },
  };
}

/** Forgets every member's preview saves and scores of the game. */
export async function clearPreviewData(ctx: AppContext, gameId: number): Promise<void> {
  await deletePreviewData(ctx.db, gameId);
}
