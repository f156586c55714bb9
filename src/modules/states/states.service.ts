// Save states (docs/api.md, "Save states"): per player, per game, per slot, with optimistic concurrency.
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/connect.js';
import type { Credential } from '../../http/auth.js';
import type { JsonParserOptions } from '../../http/content.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { formatTimestamp } from '../../time.js';
import { JsonText, hasNonFiniteNumber, stringifyJson, utf8Length } from './json-text.js';
import { actingPlayer, requireListedGame } from './states.access.js';
import {
  copyIntoEmptySlots,
  countFilledSlots,
  emptySlot,
  findListedGameWithState,
  replaceInListedGame,
  findStoredState,
  insertFirstState,
  listStoredStates,
  refillEmptiedSlot,
  replaceStoredState,
  visibleVersion,
  type ListedGameRow,
  type SlotKey,
  type StateWrite,
  type StoredStateRow,
} from './states.repository.js';
import { MAX_STATE_BYTES, type PutStateResult, type State, type StateSummary } from './states.schemas.js';

/** What every call names: the game, and the player when a developer key acts (`player_id`). */
export interface StatesTarget {
  gameSlug: string;
  /** the `player_id` the caller sent, if any */
  playerId?: number;
}

export interface SlotTarget extends StatesTarget {
  slot: number;
}

export interface PutStateInput extends SlotTarget {
  /** any JSON value (null included) */
  state: unknown;
  /** undefined keeps the stored label, null clears it */
  label?: string | null;
  /** 0: only if the slot is empty */
  expectedVersion?: number;
}

export type StateListItem = StateSummary & { state?: unknown };

/** Rounds of a save that keeps losing races to other writers before it answers 409 (each round is one or two statements). */
const MAX_SAVE_ROUNDS = 8;

function toSummary(row: StoredStateRow): StateSummary {
  return {
    slot: row.slot,
    label: row.label,
    version: Number(row.version),
    size_bytes: row.size_bytes,
    created_at: formatTimestamp(Number(row.created_at)),
    updated_at: formatTimestamp(Number(row.updated_at)),
  };
}

/** The documented field order; `payload` is the parsed state, or the stored text itself (JsonText) for an answer that carries it as it is. */
function toState(row: Required<StoredStateRow>, payload: unknown = JSON.parse(row.state)): State {
  const { slot, label, version, size_bytes, created_at, updated_at } = toSummary(row);
  return { slot, label, version, size_bytes, state: payload, created_at, updated_at };
}

function assertSlot(game: ListedGameRow, slot: number): void {
  if (Number.isInteger(slot) && slot >= 0 && slot < game.save_slots) return;
  throw validationFailed({
    slot: game.save_slots === 0 ? 'this game has no save slots' : `must be an integer from 0 to ${game.save_slots - 1}`,
  });
}

/** Game (404), slot (422), then who acts for whom (403/404/422): the order every slot route checks in. */
async function resolveSlot(ctx: AppContext, credential: Credential, target: SlotTarget): Promise<SlotKey> {
  const game = await requireListedGame(ctx, target.gameSlug);
  assertSlot(game, target.slot);
  const playerId = await actingPlayer(ctx, credential, game, target.playerId);
  return { playerId, gameId: game.id, slot: target.slot };
}

/** The player's stored states of the game, by slot; payloads only with `includeState` (the /dev listing). */
export async function listStates(
  ctx: AppContext,
  credential: Credential,
  target: StatesTarget & { includeState?: boolean },
): Promise<{ states: StateListItem[]; saveSlots: number }> {
  const game = await requireListedGame(ctx, target.gameSlug);
  const playerId = await actingPlayer(ctx, credential, game, target.playerId);
  const rows = await listStoredStates(ctx.db, playerId, game.id, game.save_slots, target.includeState === true);
  const states = rows.map((row) => (target.includeState ? toState(row as Required<StoredStateRow>) : toSummary(row)));
  return { states, saveSlots: game.save_slots };
}

/** A player credential acting for its own player (naming no other): the slot routes' common call. */
const ownSlot = (credential: Credential, target: SlotTarget): credential is Credential & { kind: 'player' } =>
  credential.kind === 'player' && (target.playerId ?? credential.playerId) === credential.playerId;

/** The state in a slot, its payload as the JSON text it was saved as (see JsonText); 404 not_found when the slot is empty. */
export async function getState(ctx: AppContext, credential: Credential, target: SlotTarget): Promise<State> {
  let row: Required<StoredStateRow> | undefined;
  if (ownSlot(credential, target)) {
    // A player's own slot, the common call: the game and the slot in one statement, checked in resolveSlot's order.
    const found = await findListedGameWithState(ctx.db, target.gameSlug, credential.playerId, target.slot);
    if (!found) throw notFound('No such game');
    assertSlot(found.game, target.slot);
    row = found.state;
  } else row = await findStoredState(ctx.db, await resolveSlot(ctx, credential, target));
  if (!row) throw new AppError('not_found', `Slot ${target.slot} is empty`);
  return toState(row, new JsonText(row.state));
}

const conflict = (current: number) =>
  new AppError('version_conflict', current === 0 ? 'The slot is empty' : `The slot holds version ${current}`, {
    current_version: current,
  });

/**
 * How the state routes parse their bodies: keys named __proto__ or constructor are data, and any depth a state can
 * have is allowed. Each level of nesting is at least two bytes of JSON text (`[` and `]`), so a body nested deeper than
 * MAX_STATE_BYTES / 2 levels (plus one for the body object) holds a state over the limit: 413 before it is parsed.
 */
export const STATE_JSON_PARSING: JsonParserOptions = {
  keepPrototypeKeys: true,
  maxDepth: MAX_STATE_BYTES / 2 + 1,
  tooDeep: () =>
    new AppError(
      'state_too_large',
      `The state is nested more than ${(MAX_STATE_BYTES / 2).toLocaleString('en')} levels deep, so it is over ${MAX_STATE_BYTES.toLocaleString('en')} bytes of JSON`,
      {
        max_bytes: MAX_STATE_BYTES,
      },
    ),
};

/** The canonical JSON text of a state and its size: 422 for what cannot be stored exactly, 413 above the limit. */
function encodeState(state: unknown): { text: string; sizeBytes: number } {
  const text = stringifyJson(state);
  if (text === undefined) throw validationFailed({ state: 'is required' });
  // JSON.stringify writes Infinity (a literal such as 1e400) as null: only a text holding a null can hide one.
  if (text.includes('null') && hasNonFiniteNumber(state)) {
    throw validationFailed({
      state: 'holds a number beyond the range of a double (such as 1e400), which cannot be stored exactly',
    });
  }
  const sizeBytes = utf8Length(text);
  if (sizeBytes > MAX_STATE_BYTES) {
    const message = `The state is ${sizeBytes.toLocaleString('en')} bytes of JSON; at most ${MAX_STATE_BYTES.toLocaleString('en')} are allowed`;
    throw new AppError('state_too_large', message, { size_bytes: sizeBytes, max_bytes: MAX_STATE_BYTES });
  }
  return { text, sizeBytes };
}

/** encodeState, or undefined where it would refuse the state. */
function encodeOrUndefined(state: unknown): { text: string; sizeBytes: number } | undefined {
  try {
    return encodeState(state);
  } catch {
    return undefined;
  }
}

/**
 * Writes into a slot under the version rule; returns the new version and whether the slot was empty.
 * Every write is one conditional statement (UPDATE … WHERE version = n, or an INSERT that the primary key lets only
 * one request win), so saves racing with the same expected version give one success and 409s. A save that loses a
 * race without a version to defend simply goes round again.
 */
async function writeSlot(
  ctx: AppContext,
  key: SlotKey,
  write: StateWrite,
  expected: number | undefined,
): Promise<{ version: number; created: boolean }> {
  for (let round = 0; round < MAX_SAVE_ROUNDS; round++) {
    if (expected !== 0) {
      const version = await replaceStoredState(ctx.db, key, write, expected);
      if (version !== undefined) return { version, created: false };
      if (expected !== undefined) {
        const current = await visibleVersion(ctx.db, key);
        if (current !== expected) throw conflict(current);
        continue; // emptied and refilled up to `expected` between the two statements: try again
      }
    }
    // The slot looked empty: fill it, continuing the version of an emptied row, or as the first save ever.
    const version = (await refillEmptiedSlot(ctx.db, key, write)) ?? (await insertFirstState(ctx.db, key, write));
    if (version !== undefined) return { version, created: true };
    if (expected === 0) {
      const current = await visibleVersion(ctx.db, key);
      if (current !== 0) throw conflict(current);
    }
    // Another request filled the slot between our statements: go round again.
  }
  throw conflict(await visibleVersion(ctx.db, key));
}

async function countConflicts<T>(ctx: AppContext, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof AppError && error.code === 'version_conflict') ctx.metrics.stateConflicts.inc();
    throw error;
  }
}

/**
 * Saves a state. Without expectedVersion it overwrites whatever is stored; with n > 0 only version n; with 0 only an
 * empty slot (else 409 version_conflict with current_version). Nothing is written on any error.
 */
export async function putState(ctx: AppContext, credential: Credential, input: PutStateInput): Promise<PutStateResult> {
  let encoded: { text: string; sizeBytes: number } | undefined;
  if (ownSlot(credential, input) && input.label === undefined && input.expectedVersion !== 0) {
    // The common save, a player overwriting an own filled slot and keeping its label: one statement when it succeeds.
    // Anything else (a bad state, no such game or slot, an empty slot, another version) goes the long way below,
    // which answers in the documented order.
    encoded = encodeOrUndefined(input.state);
    const version =
      encoded &&
      (await replaceInListedGame(
        ctx.db,
        input.gameSlug,
        credential.playerId,
        input.slot,
        { ...encoded, now: ctx.clock.now() },
        input.expectedVersion,
      ));
    if (version !== undefined) {
      ctx.metrics.stateSaves.inc();
      return { slot: input.slot, version, size_bytes: encoded!.sizeBytes, created: false };
    }
  }
  const key = await resolveSlot(ctx, credential, input);
  const { text, sizeBytes } = encoded ?? encodeState(input.state);
  const write: StateWrite = { text, sizeBytes, label: input.label, now: ctx.clock.now() };
  const { version, created } = await countConflicts(ctx, writeSlot(ctx, key, write, input.expectedVersion));
  ctx.metrics.stateSaves.inc();
  return { slot: key.slot, version, size_bytes: sizeBytes, created };
}

/** Empties a slot. `{deleted: false}` when it was already empty. The slot keeps its version for the next save. */
export async function deleteState(
  ctx: AppContext,
  credential: Credential,
  target: SlotTarget,
): Promise<{ deleted: boolean }> {
  const key = await resolveSlot(ctx, credential, target);
  return { deleted: await emptySlot(ctx.db, key, ctx.clock.now()) };
}

/**
 * A guest merged into an account, inside the caller's transaction: the guest's saves fill the account's empty slots,
 * and never replace a stored one (those stay with the guest, which is then removed). Returns both counts.
 */
export async function mergeSaves(
  trx: Executor,
  fromId: number,
  toId: number,
): Promise<{ moved: number; notMoved: number }> {
  const filled = await countFilledSlots(trx, fromId);
  const moved = await copyIntoEmptySlots(trx, fromId, toId);
  return { moved, notMoved: filled - moved };
}
