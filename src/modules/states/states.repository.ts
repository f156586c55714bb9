// Every query on save_states, and the two lookups the state routes need (listed game, player of a game).
// Each write is one conditional statement: the version check and the write cannot be split by another request.
import { sql, type Expression, type ExpressionBuilder } from 'kysely';
import type { Executor } from '../../db/connect.js';
import { type Params, type ValueOrParam, statement } from '../../db/statement.js';
import type { Database } from '../../db/schema.js';
import { LISTED_STATUSES } from '../games/manifest.js';

/** The row of one slot: primary key (player_id, game_id, slot). */
export interface SlotKey {
  playerId: number;
  gameId: number;
  slot: number;
}

export interface StateWrite {
  /** canonical JSON text */
  text: string;
  sizeBytes: number;
  /** undefined: keep the stored label (a replace) or none (a first save); null: clear it */
  label: string | null | undefined;
  now: number;
}

export interface ListedGameRow {
  id: number;
  slug: string;
  save_slots: number;
}

export interface StoredStateRow {
  slot: number;
  label: string | null;
  version: number;
  size_bytes: number;
  created_at: number;
  updated_at: number;
  state?: string;
}

/** A game clients can see (published or beta). Uses the unique index on slug. */
export function findListedGame(db: Executor, slug: string): Promise<ListedGameRow | undefined> {
  return listedGame.first(db, { slug });
}
// every state call starts here: compiled once (db/statement.ts), like the other hot statements below
const listedGame = statement('states.listedGame', (p: Params<{ slug: string }>, db) =>
  db
    .selectFrom('games')
    .select(['id', 'slug', 'save_slots'])
    .where('slug', '=', p.slug)
    .where('status', 'in', [...LISTED_STATUSES]),
);

/**
 * findListedGame and the state the player stored in a slot of it (findStoredState), in one statement: the unique index
 * on slug, then the primary key of save_states. `state` is undefined when the slot is empty.
 */
export async function findListedGameWithState(
  db: Executor,
  slug: string,
  playerId: number,
  slot: number,
): Promise<{ game: ListedGameRow; state: Required<StoredStateRow> | undefined } | undefined> {
  const row = await listedGameWithState.first(db, { slug, playerId, slot });
  if (!row) return undefined;
  const { id, slug: gameSlug, save_slots, ...state } = row;
  return {
    game: { id, slug: gameSlug, save_slots },
    state: state.state === null ? undefined : (state as Required<StoredStateRow>),
  };
}
const listedGameWithState = statement(
  'states.listedGameWithState',
  (p: Params<{ slug: string; playerId: number; slot: number }>, db) =>
    db
      .selectFrom('games as g')
      .leftJoin('save_states as s', (join) =>
        join
          .onRef('s.game_id', '=', 'g.id')
          .on('s.player_id', '=', p.playerId)
          .on('s.slot', '=', p.slot)
          .on('s.state', 'is not', null),
      )
      .select(['g.id', 'g.slug', 'g.save_slots', ...SUMMARY.map((c) => `s.${c}` as const), 's.state'])
      .where('g.slug', '=', p.slug)
      .where('g.status', 'in', [...LISTED_STATUSES]),
  { sqliteParamsFromOneRow: true },
);

/** An active player who has started at least one play session of the game (play_sessions_player_idx). */
export async function isActivePlayerOfGame(db: Executor, playerId: number, gameId: number): Promise<boolean> {
  const row = await db
    .selectFrom('players as p')
    .select('p.id')
    .where('p.id', '=', playerId)
    .where('p.status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('play_sessions as s')
          .select('s.id')
          .whereRef('s.player_id', '=', 'p.id')
          .where('s.game_id', '=', gameId),
      ),
    )
    .executeTakeFirst();
  return row !== undefined;
}

const SUMMARY = ['slot', 'label', 'version', 'size_bytes', 'created_at', 'updated_at'] as const;

/** `player_id = ? AND game_id = ? AND slot = ?`: the primary key. The game may be an expression (a subquery reading it). */
const atSlot =
  (key: {
    playerId: ValueOrParam<number>;
    gameId: ValueOrParam<number> | Expression<number>;
    slot: ValueOrParam<number>;
  }) =>
  (eb: ExpressionBuilder<Database, 'save_states'>) =>
    eb.and([eb('player_id', '=', key.playerId), eb('game_id', '=', key.gameId), eb('slot', '=', key.slot)]);

/** The stored states of a player in slots below `slotCount`, by slot; the payload only when asked (primary key prefix). */
export async function listStoredStates(
  db: Executor,
  playerId: number,
  gameId: number,
  slotCount: number,
  withState: boolean,
): Promise<StoredStateRow[]> {
  const rows = await db
    .selectFrom('save_states')
    .select(SUMMARY)
    .$if(withState, (q) => q.select('state'))
    .where('player_id', '=', playerId)
    .where('game_id', '=', gameId)
    .where('slot', '<', slotCount)
    .where('state', 'is not', null)
    .orderBy('slot')
    .execute();
  return rows as StoredStateRow[];
}

/** A slot's key as a statement's arguments (a caller's key may carry more fields). */
const slotArgs = (key: SlotKey): SlotKey => ({ playerId: key.playerId, gameId: key.gameId, slot: key.slot });

/** The state stored in a slot, or undefined when the slot is empty. */
export async function findStoredState(db: Executor, key: SlotKey): Promise<Required<StoredStateRow> | undefined> {
  const row = await storedState.first(db, slotArgs(key));
  return row as Required<StoredStateRow> | undefined;
}
const storedState = statement('states.storedState', (p: Params<SlotKey>, db) =>
  db
    .selectFrom('save_states')
    .select([...SUMMARY, 'state'])
    .where(atSlot(p))
    .where('state', 'is not', null),
);

/** The version a client sees: the stored one, 0 when the slot is empty. */
export async function visibleVersion(db: Executor, key: SlotKey): Promise<number> {
  const row = await db.selectFrom('save_states').select(['version', 'state']).where(atSlot(key)).executeTakeFirst();
  return row && row.state !== null ? Number(row.version) : 0;
}

/**
 * Replaces a stored state and raises its version by one, only if the slot holds a state (of `expectedVersion`
 * when given). Returns the new version, or undefined when the condition did not hold.
 * On PostgreSQL a concurrent writer of the same row waits for the lock, then re-checks the condition on the new row.
 */
export async function replaceStoredState(
  db: Executor,
  key: SlotKey,
  write: StateWrite,
  expectedVersion?: number,
): Promise<number | undefined> {
  if (write.label === undefined) {
    const args = { ...slotArgs(key), text: write.text, sizeBytes: write.sizeBytes, now: write.now };
    const row =
      expectedVersion === undefined
        ? await replace.first(db, args)
        : await replaceVersion.first(db, { ...args, expected: expectedVersion });
    return row ? Number(row.version) : undefined;
  }
  const row = await db
    .updateTable('save_states')
    .set((eb) => ({
      state: write.text,
      size_bytes: write.sizeBytes,
      version: eb('version', '+', 1),
      updated_at: write.now,
      ...(write.label !== undefined ? { label: write.label } : {}),
    }))
    .where(atSlot(key))
    .where('state', 'is not', null)
    .$if(expectedVersion !== undefined, (q) => q.where('version', '=', expectedVersion!))
    .returning('version')
    .executeTakeFirst();
  return row ? Number(row.version) : undefined;
}

/** replaceStoredState keeping the label, without and with the expected version: compiled once (db/statement.ts). */
type ReplaceArgs = { playerId: number; slot: number; text: string; sizeBytes: number; now: number };
const replaceQuery = (db: Executor, p: Params<ReplaceArgs>, gameId: ValueOrParam<number> | Expression<number>) =>
  db
    .updateTable('save_states')
    .set((eb) => ({ state: p.text, size_bytes: p.sizeBytes, version: eb('version', '+', 1), updated_at: p.now }))
    .where(atSlot({ playerId: p.playerId, gameId, slot: p.slot }))
    .where('state', 'is not', null)
    .returning('version');
const replace = statement('states.replace', (p: Params<ReplaceArgs & { gameId: number }>, db) =>
  replaceQuery(db, p, p.gameId),
);
const replaceVersion = statement(
  'states.replaceVersion',
  (p: Params<ReplaceArgs & { gameId: number; expected: number }>, db) =>
    replaceQuery(db, p, p.gameId).where('version', '=', p.expected),
);

/**
 * replaceStoredState keeping the label, for a player's slot of the game with this slug, in one statement: the game must
 * be listed and have the slot (save_slots > slot), read in a subquery (unique index on slug), then the primary key.
 * Undefined when anything does not hold (no such game or slot, an empty slot, another version): the caller then goes
 * the long way, which tells which.
 */
export async function replaceInListedGame(
  db: Executor,
  slug: string,
  playerId: number,
  slot: number,
  write: Omit<StateWrite, 'label'>,
  expectedVersion?: number,
): Promise<number | undefined> {
  const args = { slug, playerId, slot, text: write.text, sizeBytes: write.sizeBytes, now: write.now };
  const row =
    expectedVersion === undefined
      ? await replaceBySlug.first(db, args)
      : await replaceVersionBySlug.first(db, { ...args, expected: expectedVersion });
  return row ? Number(row.version) : undefined;
}
/** replaceQuery with the game read by slug in a subquery: listed, and with the slot (save_slots > slot). */
const replaceBySlugQuery = (db: Executor, p: Params<ReplaceArgs & { slug: string }>) => {
  const gameId = db
    .selectFrom('games')
    .select('id')
    .where('slug', '=', p.slug)
    .where('status', 'in', [...LISTED_STATUSES])
    .where('save_slots', '>', p.slot);
  return replaceQuery(db, p, gameId as Expression<number>);
};
const replaceBySlug = statement('states.replaceBySlug', (p: Params<ReplaceArgs & { slug: string }>, db) =>
  replaceBySlugQuery(db, p),
);
const replaceVersionBySlug = statement(
  'states.replaceVersionBySlug',
  (p: Params<ReplaceArgs & { slug: string; expected: number }>, db) =>
    replaceBySlugQuery(db, p).where('version', '=', p.expected),
);

/** Saves into a slot emptied earlier, continuing its version. Undefined when there is no such empty row. */
export async function refillEmptiedSlot(db: Executor, key: SlotKey, write: StateWrite): Promise<number | undefined> {
  const row = await db
    .updateTable('save_states')
    .set((eb) => ({
      state: write.text,
      size_bytes: write.sizeBytes,
      version: eb('version', '+', 1),
      label: write.label ?? null,
      created_at: write.now,
      updated_at: write.now,
    }))
    .where(atSlot(key))
    .where('state', 'is', null)
    .returning('version')
    .executeTakeFirst();
  return row ? Number(row.version) : undefined;
}

/** The first save of a never-used slot: version 1. Undefined when the row exists (another request made it first). */
export async function insertFirstState(db: Executor, key: SlotKey, write: StateWrite): Promise<number | undefined> {
  const row = await db
    .insertInto('save_states')
    .values({
      player_id: key.playerId,
      game_id: key.gameId,
      slot: key.slot,
      version: 1,
      label: write.label ?? null,
      state: write.text,
      size_bytes: write.sizeBytes,
      created_at: write.now,
      updated_at: write.now,
    })
    .onConflict((oc) => oc.columns(['player_id', 'game_id', 'slot']).doNothing())
    .returning('version')
    .executeTakeFirst();
  return row ? Number(row.version) : undefined;
}

/** Empties a slot that holds a state; the row stays with its version. True when there was a state. */
export async function emptySlot(db: Executor, key: SlotKey, now: number): Promise<boolean> {
  const result = await db
    .updateTable('save_states')
    .set({ state: null, label: null, size_bytes: 0, updated_at: now })
    .where(atSlot(key))
    .where('state', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many filled slots the player has, of every game. Primary key (player_id, …) prefix. */
export async function countFilledSlots(db: Executor, playerId: number): Promise<number> {
  const row = await db
    .selectFrom('save_states')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('player_id', '=', playerId)
    .where('state', 'is not', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Copies every filled slot of `fromId` into the same slot of `toId` where that slot is empty (no row, or a row whose
 * state is NULL), never over a stored state: one INSERT … SELECT … ON CONFLICT DO UPDATE … WHERE state IS NULL, so a
 * save the account makes at the same moment is never overwritten either (its row lock, or SQLite's write lock). An
 * emptied slot keeps its versions going up: the copy takes the higher of the guest's version and the slot's next one.
 * Returns how many slots were filled.
 */
export async function copyIntoEmptySlots(db: Executor, fromId: number, toId: number): Promise<number> {
  const rows = await db
    .insertInto('save_states')
    .columns(['player_id', 'game_id', 'slot', 'version', 'label', 'state', 'size_bytes', 'created_at', 'updated_at'])
    .expression(
      db
        .selectFrom('save_states')
        .select([
          sql<number>`cast(${toId} as integer)`.as('player_id'),
          'game_id',
          'slot',
          'version',
          'label',
          'state',
          'size_bytes',
          'created_at',
          'updated_at',
        ])
        .where('player_id', '=', fromId)
        .where('state', 'is not', null),
    )
    .onConflict((oc) =>
      oc
        .columns(['player_id', 'game_id', 'slot'])
        .doUpdateSet({
          version: sql<number>`case when save_states.version + 1 > excluded.version then save_states.version + 1 else excluded.version end`,
          label: sql<string | null>`excluded.label`,
          state: sql<string | null>`excluded.state`,
          size_bytes: sql<number>`excluded.size_bytes`,
          created_at: sql<number>`excluded.created_at`,
          updated_at: sql<number>`excluded.updated_at`,
        })
        .where('save_states.state', 'is', null),
    )
    .returning('slot')
    .execute();
  return rows.length;
}
