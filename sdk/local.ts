// Local mode: outside the play shell (a page opened on its own), the SDK answers from a stand-in that keeps saves and
// scores in the page's storage (localStorage), so a game can be built and tried without a platform. Free of the DOM:
// the page gives it a Storage and a clock. init() says `local: true`; nothing here is ever seen by the platform.
import type { MethodName, Methods } from './protocol.js';

/** What local mode takes from the game's own game.json (the fields a game reads through init()), when there is one. */
export interface LocalManifest {
  slug?: string;
  name?: string;
  version?: string;
  save_slots?: number;
  orientation?: string;
  leaderboard?: { enabled?: boolean; order?: 'asc' | 'desc'; unit?: string };
}

/** The part of the DOM's Storage the stand-in uses. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface LocalOptions {
  /** where saves and scores are kept (null or failing: kept in memory, lost on reload) */
  storage?: StorageLike | null;
  /** key under which everything is kept; one per game (the page's directory) */
  key?: string;
  /** the game's name and slug as init() reports them */
  name?: string;
  slug?: string;
  now?: () => number;
}

/** Slots without a game.json (the platform's default is what game.json says); the other limits are the platform's. */
export const LOCAL_SAVE_SLOTS = 10;
const STATE_MAX_BYTES = 262_144;
const BOARD = /^[a-z0-9_-]{1,40}$/;

interface StoredState {
  label: string | null;
  version: number;
  state: unknown;
  created_at: string;
  updated_at: string;
}

interface StoredScore {
  board: string;
  score: number;
  at: number;
}

interface Data {
  saves: Record<string, StoredState>;
  scores: StoredScore[];
}

/** An error the stand-in answers with: the platform's code and status, so a game's handling can be tried locally. */
export interface LocalFailure {
  code: string;
  message: string;
  status: number;
  [extra: string]: unknown;
}

const fail = (code: string, status: number, message: string, extra: Record<string, unknown> = {}): LocalFailure => ({
  code,
  message,
  status,
  ...extra,
});
const timestamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const bytes = (text: string) => new TextEncoder().encode(text).length;

/** Start of the period holding `ms`, in UTC (the platform uses its reset_timezone; locally UTC is enough). */
function periodStart(period: GamePlatform.Period, ms: number): number {
  if (period === 'all') return -Infinity;
  const d = new Date(ms);
  if (period === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return period === 'day' ? day : day - ((d.getUTCDay() + 6) % 7) * 86_400_000; // ISO week: Monday first
}

const isSlotCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= 20;

export class LocalStandIn {
  private memory: Data | null = null;
  private readonly now: () => number;
  readonly key: string;
  private game: GamePlatform.GameInfo;
  private entitlement: GamePlatform.Entitlement | null = null;
  private over = false;

  constructor(private readonly options: LocalOptions = {}) {
    this.now = options.now ?? Date.now;
    this.key = options.key ?? 'gameplatform.local';
    this.game = {
      slug: options.slug ?? 'local-game',
      name: options.name || 'Local game',
      version: '0.0.0',
      save_slots: LOCAL_SAVE_SLOTS,
      orientation: 'any',
      leaderboard: { enabled: true, order: 'desc', unit: 'points' },
    };
  }

  /** Takes the game's slug, name, version, save slots, orientation and leaderboard from its game.json. */
  configure(manifest: LocalManifest): void {
    const g = this.game;
    const board = manifest.leaderboard ?? {};
    this.game = {
      slug: typeof manifest.slug === 'string' ? manifest.slug : g.slug,
      name: typeof manifest.name === 'string' ? manifest.name : g.name,
      version: typeof manifest.version === 'string' ? manifest.version : g.version,
      // As the platform: a game.json that names no save_slots has none.
      save_slots: isSlotCount(manifest.save_slots) ? manifest.save_slots : 0,
      orientation: typeof manifest.orientation === 'string' ? manifest.orientation : g.orientation,
      leaderboard: {
        enabled: typeof board.enabled === 'boolean' ? board.enabled : true,
        order: board.order === 'asc' ? 'asc' : 'desc',
        unit: typeof board.unit === 'string' ? board.unit : 'points',
      },
    };
  }

  get info(): GamePlatform.GameInfo {
    return this.game;
  }

  /** A simulated free player's day (local-page.ts); null: no limit, as before. */
  setEntitlement(entitlement: GamePlatform.Entitlement | null): void {
    this.entitlement = entitlement;
  }

  /** After a simulated limit the shell would have removed the game: every call is refused, as the shell does. */
  close(): void {
    this.over = true;
  }

  /** Answers one call as the shell would, or throws a LocalFailure. */
  answer<M extends MethodName>(method: M, params: Methods[M]['params']): Methods[M]['result'] {
    if (this.over) throw fail('session_over', 0, 'The play session is over');
    const p = (params ?? {}) as Record<string, unknown>;
    const result = this.dispatch(method, p);
    return result as Methods[M]['result'];
  }

  private dispatch(method: MethodName, p: Record<string, unknown>): unknown {
    switch (method) {
      case 'init':
        return this.init();
      case 'saves.list':
        return Object.entries(this.read().saves)
          .map(([slot, s]) => ({
            slot: Number(slot),
            label: s.label,
            version: s.version,
            size_bytes: bytes(JSON.stringify(s.state)),
            created_at: s.created_at,
            updated_at: s.updated_at,
          }))
          .sort((a, b) => a.slot - b.slot);
      case 'saves.load': {
        const s = this.read().saves[this.slot(p.slot)];
        return s
          ? {
              slot: p.slot,
              label: s.label,
              version: s.version,
              size_bytes: bytes(JSON.stringify(s.state)),
              state: structuredClone(s.state),
              updated_at: s.updated_at,
            }
          : null;
      }
      case 'saves.save':
        return this.save(p);
      case 'saves.delete': {
        const data = this.read();
        const slot = this.slot(p.slot);
        const deleted = slot in data.saves;
        delete data.saves[slot];
        this.write(data);
        return { deleted };
      }
      case 'scores.submit':
        return this.submit(p);
      case 'leaderboard.read':
        return this.leaderboard(p);
      case 'identity.token':
        throw fail(
          'local_mode',
          0,
          'Local mode has no platform to sign an identity token: play the game on the platform to get one',
        );
      default:
        throw fail('unknown_method', 0, `Unknown method ${String(method)}`);
    }
  }

  private init(): GamePlatform.InitInfo {
    return {
      local: true,
      game: structuredClone(this.game),
      player: { id: 0, username: 'local', display_name: 'Local player', avatar_url: '' },
      continue: null,
      entitlement: this.entitlement ?? {
        unlimited: true,
        allowance_seconds: 0,
        used_seconds: 0,
        remaining_seconds: null,
        limit_reached: false,
        resets_in_seconds: 0,
        day: timestamp(this.now()).slice(0, 10),
      },
    };
  }

  private slot(value: unknown): string {
    const slots = this.game.save_slots;
    if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) >= slots) {
      throw fail('validation_failed', 422, 'Some fields are not valid', {
        fields: { slot: slots ? `must be an integer from 0 to ${slots - 1}` : 'this game has no save slots' },
      });
    }
    return String(value);
  }

  private save(p: Record<string, unknown>): GamePlatform.SaveResult {
    const slot = this.slot(p.slot);
    const text = JSON.stringify(p.state);
    if (text === undefined)
      throw fail('validation_failed', 422, 'Some fields are not valid', { fields: { state: 'must be a JSON value' } });
    const size = bytes(text);
    if (size > STATE_MAX_BYTES)
      throw fail('state_too_large', 413, `The state is ${size} bytes of JSON; at most ${STATE_MAX_BYTES}`);
    const data = this.read();
    const current = data.saves[slot];
    const expected = p.expected_version;
    if (expected !== undefined && expected !== (current?.version ?? 0)) {
      throw fail('version_conflict', 409, 'The slot holds another version', { current_version: current?.version ?? 0 });
    }
    const at = timestamp(this.now());
    const label = typeof p.label === 'string' ? p.label : (current?.label ?? null);
    data.saves[slot] = {
      label,
      version: (current?.version ?? 0) + 1,
      state: JSON.parse(text),
      created_at: current?.created_at ?? at,
      updated_at: at,
    };
    this.write(data);
    return { slot: Number(slot), version: data.saves[slot]!.version, size_bytes: size, created: !current };
  }

  private board(value: unknown): string {
    if (value === undefined) return 'main';
    if (typeof value !== 'string' || !BOARD.test(value))
      throw fail('validation_failed', 422, 'Some fields are not valid', {
        fields: { board: 'must match ^[a-z0-9_-]{1,40}$' },
      });
    return value;
  }

  /** The best of `scores` by the game's order: the highest, or the lowest for `order: asc` (times, strokes). */
  private better(a: number, b: number): number {
    return this.game.leaderboard.order === 'asc' ? Math.min(a, b) : Math.max(a, b);
  }

  private best(scores: StoredScore[], board: string, since: number): number | null {
    const own = scores.filter((s) => s.board === board && s.at >= since).map((s) => s.score);
    return own.length ? own.reduce((a, b) => this.better(a, b)) : null;
  }

  private enabledBoard(value: unknown): string {
    if (!this.game.leaderboard.enabled)
      throw fail('leaderboard_disabled', 404, 'This game has no leaderboard (game.json leaderboard.enabled is false)');
    return this.board(value);
  }

  private submit(p: Record<string, unknown>): GamePlatform.ScoreResult {
    const board = this.enabledBoard(p.board);
    const score = p.score as number;
    const data = this.read();
    const before = this.best(data.scores, board, -Infinity);
    data.scores.push({ board, score, at: this.now() });
    this.write(data);
    const best = before === null ? score : this.better(score, before);
    const personal = before === null || (best === score && score !== before);
    return { accepted: true, score, board, rank: { rank: 1, best }, personal_best: personal };
  }

  private leaderboard(p: Record<string, unknown>): GamePlatform.LeaderboardPage {
    const board = this.enabledBoard(p.board);
    const period = (p.period ?? 'all') as GamePlatform.Period;
    const limit = Number.isSafeInteger(p.limit) ? Math.min(Math.max(p.limit as number, 1), 100) : 10;
    const offset = Number.isSafeInteger(p.offset) ? Math.max(p.offset as number, 0) : 0;
    const since = periodStart(period, this.now());
    const entries = this.read().scores.filter((s) => s.board === board && s.at >= since);
    const best = this.best(entries, board, since);
    const row: GamePlatform.LeaderboardRow | null =
      best === null
        ? null
        : {
            rank: 1,
            score: best,
            entries: entries.length,
            last_played: timestamp(Math.max(...entries.map((s) => s.at))),
            player: { username: 'local', display_name: 'Local player', country: null, avatar_url: '' },
          };
    return {
      rows: row && offset === 0 ? [row] : [],
      me: { rank: row ? 1 : null, best },
      board,
      period,
      order: this.game.leaderboard.order,
      unit: this.game.leaderboard.unit,
      limit,
      offset,
      total: row ? 1 : 0,
    };
  }

  private read(): Data {
    if (this.memory) return this.memory;
    try {
      const text = this.options.storage?.getItem(this.key);
      const parsed = text ? (JSON.parse(text) as Partial<Data>) : {};
      return { saves: parsed.saves ?? {}, scores: parsed.scores ?? [] };
    } catch {
      return (this.memory = { saves: {}, scores: [] });
    }
  }

  private write(data: Data): void {
    if (this.memory || !this.options.storage) {
      this.memory = data;
      return;
    }
    try {
      this.options.storage.setItem(this.key, JSON.stringify(data));
    } catch {
      this.memory = data; // storage full or refused: keep going in memory
    }
  }
}
