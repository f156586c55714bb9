// Table types for Kysely. Times are epoch milliseconds (bigint), flags are 0/1 integers: one shape on SQLite and PostgreSQL.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Flag = 0 | 1;

export interface PlayersTable {
  id: Generated<number>;
  /** null for a guest (and only for one) */
  email: string | null;
  username: string;
  /** lower-cased username, unique: usernames are unique case-insensitively */
  username_key: string;
  display_name: string;
  /** null for a guest: nothing to log in with but its token */
  password_hash: string | null;
  email_verified: Generated<Flag>;
  role: Generated<string>;
  status: Generated<string>;
  bio: string | null;
  country: string | null;
  newsletter: Generated<Flag>;
  avatar_key: string | null;
  membership_plan: Generated<string>;
  membership_status: Generated<string>;
  membership_renews_at: number | null;
  membership_ends_at: number | null;
  /** while status is 'deleting': when the account is purged (DELETE /me; a login before then cancels it) */
  deletion_due_at: Generated<number | null>;
  /** 1: a guest player (POST /auth/guest): no email, no password, no public profile; registering turns it into an account */
  guest: Generated<Flag>;
  created_at: number;
  updated_at: number;
}

export interface PlayerTokensTable {
  id: Generated<number>;
  player_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number;
  revoked_at: number | null;
  /** 'web': a portal session (cookie login or register); 'api': any other token. Ten active of each kind. */
  kind: Generated<TokenKind>;
}

export type TokenKind = 'api' | 'web';

export interface GamesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  tagline: string | null;
  description: string | null;
  category: string;
  /** JSON array of strings */
  tags: string;
  version: string;
  orientation: string;
  players_min: number;
  players_max: number;
  leaderboard_enabled: Flag;
  leaderboard_order: string;
  leaderboard_unit: string;
  /** game.json `leaderboard.min` / `max`: the lowest and highest score a submission may carry (null: no bound) */
  leaderboard_min: number | null;
  leaderboard_max: number | null;
  /** when an operator featured it on the home page; null: not featured */
  featured_at: ColumnType<number | null, number | null | undefined, number | null>;
  save_slots: number;
  requires_premium: Flag;
  status: string;
  author: string;
  released_at: string;
  /** path of the cover image inside the game's files */
  cover: string;
  /** path of the entry file inside the game's files */
  entry: string;
  /** directory under <data_dir>/games holding the current file set */
  files_dir: string;
  /** play sessions started (stats.plays) */
  plays: Generated<number>;
  /**
   * credited seconds not in game_playtime: time credited before the shards existed (stats.playtime_hours is this plus
   * the game's shards; games/playtime.repository.ts)
   */
  playtime_seconds: Generated<number>;
  /** name, tagline, description, tags and author, case-folded (games/search.ts), for `q` */
  search_text: Generated<string>;
  /** the file set the last publish replaced (still served under its versioned URL), and its entry */
  previous_files_dir: string | null;
  previous_entry: string | null;
  /** game.json `cross_origin_isolated`: its frame and the shell are served with COOP/COEP */
  cross_origin_isolated: Generated<Flag>;
  /** the studio that owns the game (null: the operators') */
  studio_id: Generated<number | null>;
  /** an operator's review of a status a studio asked for (setting studios.review): pending | rejected | null */
  review_status: Generated<string | null>;
  /** the status asked for */
  review_target: Generated<string | null>;
  /** the operator's note on a rejection */
  review_note: Generated<string | null>;
  /** when the review was asked for, or decided */
  review_at: Generated<number | null>;
  /** a cover picture uploaded through the listing API (a store key under media/); null: the live build's cover file */
  cover_key: Generated<string | null>;
  /** screenshots uploaded through the listing API: a JSON array of store keys under media/ */
  screenshots: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface StudiosTable {
  id: Generated<number>;
  slug: string;
  name: string;
  /** active | pending (signed up by itself, waiting for an operator's approval) */
  status: Generated<string>;
  created_at: number;
  approved_at: number | null;
}

export interface StudioMembersTable {
  studio_id: number;
  player_id: number;
  /** owner | developer */
  role: string;
  created_at: number;
}

/** A numbered, immutable build of a game: a file set under games/<slug>/<files_dir>. */
export interface GameBuildsTable {
  id: Generated<number>;
  game_id: number;
  /** 1, 2, 3… per game, never reused */
  number: number;
  version: string;
  files_dir: string;
  entry: string;
  /** the checked game.json, JSON */
  manifest: string;
  files: number;
  bytes: number;
  uploaded_by: number | null;
  uploaded_key_id: number | null;
  created_at: number;
  /** when the build first went live; null: never released */
  released_at: number | null;
  /** ready | pruned */
  state: Generated<string>;
  pruned_at: number | null;
}

/** An upload in parts (objects uploads/<id>/<part> in the store) that becomes a build when completed. */
export interface BuildUploadsTable {
  id: string;
  game_id: number;
  player_id: number | null;
  key_id: number | null;
  size: number;
  /** open | processing */
  state: Generated<string>;
  created_at: number;
  expires_at: number;
}

/** A studio member previewing a build: the `pv_` token its entry file is served with. */
export interface PreviewSessionsTable {
  id: Generated<number>;
  token_hash: string;
  game_id: number;
  build_id: number;
  player_id: number;
  created_at: number;
  expires_at: number;
}

/** A save made in preview, apart from the live save_states. */
export interface PreviewStatesTable {
  player_id: number;
  game_id: number;
  slot: number;
  version: number;
  label: string | null;
  state: string;
  size_bytes: number;
  created_at: number;
  updated_at: number;
}

/** A score submitted in preview, apart from the live scores. */
export interface PreviewScoresTable {
  id: Generated<number>;
  game_id: number;
  player_id: number;
  board: string;
  score: number;
  meta: string | null;
  created_at: number;
}

export interface DeveloperKeysTable {
  id: Generated<number>;
  game_id: number;
  name: string;
  key_hash: string;
  prefix: string;
  /** scopes separated by spaces */
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface PlaySessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session token (`ps_…`) */
  token_hash: string;
  player_id: number;
  game_id: number;
  /** active | closed */
  status: Generated<string>;
  started_at: number;
  /** last time the shell was heard from (start or heartbeat) */
  last_heartbeat_at: number;
  /** time up to which play has been credited */
  credited_until: number;
  credited_seconds: Generated<number>;
  ended_at: number | null;
  /** quit | navigate | hidden | error | limit | timeout | replaced */
  end_reason: string | null;
  /** 1 when the session took over the same player's still-active session of the game: the same play, not a new one */
  continues_play: Generated<number>;
}

export interface DailyUsageTable {
  player_id: number;
  /** YYYY-MM-DD in reset_timezone */
  day: string;
  /** credited seconds that day, all games */
  seconds: Generated<number>;
  /** play sessions started that day */
  sessions: Generated<number>;
  /** seconds the latest credit actually added (written with `seconds` in one statement; see addUsage) */
  last_credit: Generated<number>;
}

export interface MailTokensTable {
  id: Generated<number>;
  player_id: number;
  /** verify_email | reset_password | change_email */
  purpose: string;
  /** SHA-256 of the token (`mt_…`) sent in the mail link */
  token_hash: string;
  created_at: number;
  expires_at: number;
  /** set when the token is used: each token works once */
  used_at: number | null;
  /** change_email: the address the token sets once confirmed */
  new_email: Generated<string | null>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** the player the mail is about (purged with the account); no foreign key: the purge deletes it */
  player_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  /** when to try the SMTP server next; NULL: kept only (no smtp_url, or refused for good) */
  next_attempt_at: number | null;
  attempts: Generated<number>;
  last_error: string | null;
}

/** One row per (player, game, slot); `state` NULL means the slot is empty (the row keeps the last version). */
export interface SaveStatesTable {
  player_id: number;
  game_id: number;
  slot: number;
  /** last version assigned to the slot; never goes back, not even when the slot is emptied */
  version: number;
  label: string | null;
  /** canonical JSON text (JSON.stringify of the value); NULL while the slot is empty */
  state: string | null;
  /** UTF-8 length of `state` */
  size_bytes: Generated<number>;
  /** when the current state was first saved into the empty slot */
  created_at: number;
  updated_at: number;
}

export interface FavoritesTable {
  player_id: number;
  game_id: number;
  created_at: number;
}

/** A thumbs up (1) or down (-1) of a player on a game. */
export interface GameRatingsTable {
  player_id: number;
  game_id: number;
  value: number;
  created_at: number;
  updated_at: number;
}

export interface ScoresTable {
  id: Generated<number>;
  game_id: number;
  player_id: number;
  board: string;
  score: number;
  /** JSON object text, at most 500 characters */
  meta: string | null;
  play_session_id: number | null;
  created_at: number;
}

/** First replies to POST scores with an Idempotency-Key, kept 24 hours. */
export interface ScoreRequestsTable {
  /** `player:<id>` or `key:<id>` */
  caller: string;
  idem_key: string;
  /** SHA-256 of the game and the canonical body */
  fingerprint: string;
  /** the `data` of the first 201 reply, JSON */
  response: string;
  created_at: number;
}

/** A board in one period: `period` all | month | week | day, `period_key` `all` or the period's first date. */
export interface LeaderboardsTable {
  id: Generated<number>;
  game_id: number;
  board: string;
  period: string;
  period_key: string;
  /** the game's leaderboard order when the row was made: a change of order starts a board rebuilt from scores */
  sort_order: string;
  created_at: number;
}

/** Each player's best on a leaderboard; the ranking key is (norm, reached_at, score_id), smaller first. */
export interface LeaderboardBestsTable {
  leaderboard_id: number;
  player_id: number;
  /** the best score as submitted */
  score: number;
  /** the best normalised so that smaller is better (negated for order desc) */
  norm: number;
  /** when the best was first reached */
  reached_at: number;
  /** the submission that reached it: breaks ties of the same millisecond */
  score_id: number;
  /** submissions in the period */
  entries: number;
  last_played: number;
}

/** A slot written (with a state) in a quarter hour (updated_at / 900,000): noted by a trigger on save_states. */
export interface SaveWritesTable {
  game_id: number;
  quarter: number;
  player_id: number;
  slot: number;
}

/** An ended season of a board (docs/api.md, "Board seasons"). */
export interface LeaderboardSeasonsTable {
  id: Generated<number>;
  game_id: number;
  board: string;
  /** 1, 2, …: the board's seasons in order; the live one is the next number */
  season: number;
  /** the game's leaderboard order the standings were ranked by */
  sort_order: string;
  /** null for the first season (it began with the board's first score) */
  started_at: number | null;
  ended_at: number;
  /** players ranked when it ended */
  players: number;
}

/** A season's all-time standings as they stood when it ended: one row per rank. */
export interface LeaderboardSeasonRanksTable {
  season_id: number;
  rank: number;
  player_id: number;
  score: number;
  entries: number;
  last_played: number;
}

/** The count tree over a leaderboard's ranking keys (src/modules/scores/rank-tree.ts). */
export interface LeaderboardNodesTable {
  leaderboard_id: number;
  level: number;
  head: number;
  parent: number;
  prefix: number;
  /** keys counted below this node */
  cnt: number;
  /** 1 when the children exist and are kept up to date */
  expanded: Flag;
}

/** A game's credited playtime, in shards so that concurrent heartbeats of one game do not queue on one row. */
export interface GamePlaytimeTable {
  game_id: number;
  /** the crediting session's id modulo PLAYTIME_SHARDS */
  shard: number;
  seconds: Generated<number>;
}

/** New guests made from one address (a keyed hash of it) on one day in reset_timezone: the cap guests.per_ip_per_day. */
export interface GuestQuotasTable {
  address: string;
  day: string;
  created: Generated<number>;
}

/** One action taken in a console: who (name kept as it was), in which studio, what, on what, why, before → after. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_id: number | null;
  actor_name: string;
  studio_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  reason: string | null;
  /** JSON of the changed fields before and after, or null */
  before_json: string | null;
  after_json: string | null;
}

export interface Database {
  players: PlayersTable;
  player_tokens: PlayerTokensTable;
  games: GamesTable;
  game_playtime: GamePlaytimeTable;
  developer_keys: DeveloperKeysTable;
  play_sessions: PlaySessionsTable;
  daily_usage: DailyUsageTable;
  mail_tokens: MailTokensTable;
  mail_outbox: MailOutboxTable;
  favorites: FavoritesTable;
  game_ratings: GameRatingsTable;
  save_states: SaveStatesTable;
  scores: ScoresTable;
  score_requests: ScoreRequestsTable;
  leaderboards: LeaderboardsTable;
  leaderboard_bests: LeaderboardBestsTable;
  leaderboard_nodes: LeaderboardNodesTable;
  leaderboard_seasons: LeaderboardSeasonsTable;
  save_writes: SaveWritesTable;
  leaderboard_season_ranks: LeaderboardSeasonRanksTable;
  guest_quotas: GuestQuotasTable;
  studios: StudiosTable;
  studio_members: StudioMembersTable;
  game_builds: GameBuildsTable;
  build_uploads: BuildUploadsTable;
  preview_sessions: PreviewSessionsTable;
  preview_states: PreviewStatesTable;
  preview_scores: PreviewScoresTable;
  audit_log: AuditLogTable;
}

export type PlayerRow = Selectable<PlayersTable>;
export type NewPlayer = Insertable<PlayersTable>;
export type PlayerUpdate = Updateable<PlayersTable>;
export type PlayerTokenRow = Selectable<PlayerTokensTable>;
export type GameRow = Selectable<GamesTable>;
export type NewGame = Insertable<GamesTable>;
export type DeveloperKeyRow = Selectable<DeveloperKeysTable>;
export type PlaySessionRow = Selectable<PlaySessionsTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
export type SaveStateRow = Selectable<SaveStatesTable>;
