/**
 * The Game Platform SDK, version 1: the `GamePlatform` global that `/sdk/v1.js` defines.
 *
 * A game runs inside the play shell in a sandboxed frame (an opaque origin): it cannot call the API
 * itself. The SDK asks the shell over `postMessage`, and the shell makes the API call for the
 * player who is playing, limited to this game's own routes. Include it with a classic script tag:
 *
 *     <script src="/sdk/v1.js"></script>
 *
 * Every call returns a Promise. A refused call rejects with a {@link GamePlatform.SdkError} whose
 * `code` is the API's error code (for example `version_conflict`, `validation_failed`) or one of
 * the SDK's own: `no_shell`, `timeout`, `bad_request`, `unknown_method`, `session_over`, `network_error`, `local_mode`.
 * A call the API refuses with 401 after the shell said the player was signed out (`pause`, reason `signed_out`) does
 * not reject: it waits for the player to log in again in the shell and is then made once more, once.
 *
 * Opened on its own (not in a frame), the page runs in local mode: see {@link GamePlatform.InitInfo.local}.
 */
declare namespace GamePlatform {
  /** Events the shell sends to the game. */
  type EventName = 'entitlement' | 'pause' | 'limit' | 'resume' | 'quit';

  /** Today's free play: the shell sends it after every heartbeat. */
  interface Entitlement {
    unlimited: boolean;
    allowance_seconds: number;
    used_seconds: number;
    /** null for Unlimited members */
    remaining_seconds: number | null;
    limit_reached: boolean;
    resets_in_seconds: number;
    /** YYYY-MM-DD */
    day: string;
  }

  /**
   * `pause`: stop the game loop. `limit`: sent just before the limit closes the session; save now.
   * `replaced`: the player opened this game in another tab or on another device, which plays it now; the shell covers
   * the game and offers to play here again (then `resume`). Do not save on `replaced`: the other place has the game.
   * `signed_out`: the player's sign-in ended (signed out from another browser, or expired); the shell covers the game
   * with a login form. Calls made meanwhile wait, and are made once more after the login (then `resume`).
   */
  interface PauseEvent {
    reason: 'limit' | 'replaced' | 'signed_out';
  }

  /**
   * `resume`: after a `pause` with reason `replaced`, the player chose to play here again, in a new session; with
   * reason `signed_in`, the player logged in again and the calls that waited have been sent again.
   */
  interface ResumeEvent {
    reason: 'replaced' | 'signed_in';
  }

  /**
   * `quit`: the player pressed Quit. Keep what must be kept (an autosave): a handler may return a Promise, and the
   * shell waits for every handler to settle, at most 2 seconds, before it removes the game.
   */
  interface QuitEvent {
    reason: 'quit';
  }

  /** `limit`: the daily allowance is used up; the shell removes the game a moment later. */
  interface LimitEvent {
    reason: 'limit';
    entitlement: Entitlement;
  }

  interface EventData {
    entitlement: Entitlement;
    pause: PauseEvent;
    limit: LimitEvent;
    resume: ResumeEvent;
    quit: QuitEvent;
  }

  interface GameInfo {
    slug: string;
    name: string;
    version: string;
    save_slots: number;
    orientation: string;
    leaderboard: { enabled: boolean; order: 'asc' | 'desc'; unit: string };
  }

  interface PlayerInfo {
    /** the player's id: the one the /v1/dev routes take; to prove it to your backend, send an {@link identityToken} */
    id: number;
    username: string;
    display_name: string;
    avatar_url: string;
  }

  /** What `init()` resolves with. */
  interface InitInfo {
    /**
     * true in local mode: the page runs on its own, not in the play shell, and the SDK answers from a stand-in that keeps
     * saves and scores in this browser's localStorage (player id 0, "Local player"; identityToken() rejects with `local_mode`)
     */
    local: boolean;
    game: GameInfo;
    player: PlayerInfo;
    entitlement: Entitlement;
    /**
     * The save the player chose to continue (the portal's "Continue" button), or null for a new game: load this slot on
     * start. `version` is the slot's version when the shell looked.
     */
    continue: { slot: number; version: number } | null;
  }

  /** A save slot as listed (no payload). */
  interface StateSummary {
    slot: number;
    label: string | null;
    version: number;
    size_bytes: number;
    created_at: string;
    updated_at: string;
  }

  /** A loaded save slot. */
  interface State<T = unknown> {
    slot: number;
    label: string | null;
    version: number;
    size_bytes: number;
    state: T;
    updated_at: string;
  }

  interface SaveOptions {
    /** up to 80 characters */
    label?: string;
    /** save only if the slot still holds this version (0: only if empty); else `version_conflict` */
    expected_version?: number;
  }

  interface SaveResult {
    slot: number;
    version: number;
    size_bytes: number;
    created: boolean;
  }

  interface ScoreOptions {
    /** `^[a-z0-9_-]{1,40}$`, default `main` */
    board?: string;
    /** a small JSON object (at most 500 characters as text) */
    meta?: Record<string, unknown>;
  }

  interface ScoreResult {
    accepted: true;
    score: number;
    board: string;
    rank: { rank: number | null; best: number | null };
    personal_best: boolean;
  }

  type Period = 'all' | 'month' | 'week' | 'day';

  interface LeaderboardQuery {
    board?: string;
    period?: Period;
    /** 1 to 100, default 10 */
    limit?: number;
    offset?: number;
    /** `me`: the page centred on the player's own rank */
    around?: 'me';
  }

  interface LeaderboardRow {
    rank: number;
    score: number;
    entries: number;
    last_played: string;
    player: { username: string; display_name: string; country: string | null; avatar_url: string };
  }

  interface LeaderboardPage {
    rows: LeaderboardRow[];
    /** the player's own rank and best on this board and period */
    me: { rank: number | null; best: number | null } | null;
    board: string;
    period: Period;
    order: 'asc' | 'desc';
    unit: string;
    limit: number;
    offset: number;
    total?: number;
  }

  /**
   * A short-lived signed token naming the player and the game, for the game's own backend: it verifies the token offline
   * (a JWT, ES256, against the JWKS at `/v1/.well-known/jwks.json`; issuer: the platform's origin; audience: the game's
   * slug; `sub`: the player id) or with `POST /v1/dev/identity-token/verify` and its developer key.
   */
  interface IdentityToken {
    token: string;
    player_id: number;
    /** the game slug (the token's audience) */
    game: string;
    /** seconds until it expires (600): ask for a new one rather than keeping it */
    expires_in: number;
    /** YYYY-MM-DD HH:MM:SS (UTC) */
    expires_at: string;
  }

  /** What a refused call carries: the API's error (code, message, extra fields) and the HTTP status (0 when the SDK or shell refused it). */
  interface ErrorInfo {
    code: string;
    message: string;
    status: number;
    /** validation_failed: one message per field */
    fields?: Record<string, string>;
    /** version_conflict: the version the slot holds */
    current_version?: number;
    [extra: string]: unknown;
  }

  /** The error every refused call rejects with. */
  interface SdkError extends Error {
    name: 'GamePlatformError';
    code: string;
    status: number;
    details: ErrorInfo;
  }

  interface SDK {
    readonly version: '1';
    /** Says hello to the shell; resolves with the game, the player and today's entitlement. */
    init(): Promise<InitInfo>;
    /**
     * Listens to a shell event; returns a function that stops listening. A `quit` handler may return a Promise: the shell
     * waits for it (at most 2 s).
     */
    on<E extends EventName>(event: E, handler: (data: EventData[E]) => unknown): () => void;
    off<E extends EventName>(event: E, handler: (data: EventData[E]) => unknown): void;
    /** True for errors the SDK rejects with. */
    isError(error: unknown): error is SdkError;
    saves: {
      /** The player's filled slots of this game. */
      list(): Promise<StateSummary[]>;
      /** One slot, or null when it is empty. */
      load<T = unknown>(slot: number): Promise<State<T> | null>;
      /** Stores any JSON value (at most 262,144 bytes as JSON text). Put a format number in it for your own migrations. */
      save<T = unknown>(slot: number, state: T, options?: SaveOptions): Promise<SaveResult>;
      delete(slot: number): Promise<{ deleted: boolean }>;
    };
    scores: {
      /** Submits an integer score for the playing player (tied to the current play session). */
      submit(score: number, options?: ScoreOptions): Promise<ScoreResult>;
    };
    leaderboard: {
      read(query?: LeaderboardQuery): Promise<LeaderboardPage>;
    };
    /** A signed token proving to the game's own backend which player is playing (see {@link IdentityToken}). */
    identityToken(): Promise<IdentityToken>;
  }
}

/** The SDK, defined by `/sdk/v1.js`. */
declare const GamePlatform: GamePlatform.SDK;
