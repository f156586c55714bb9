// Player credentials kept in memory on PostgreSQL, allowed because every process sees writes at once (docs/operations.md, "Credentials in memory").
//
// Triggers (migration 2026_11_27_2100) NOTIFY `gp_credentials` with the player's id whenever a token is revoked, its
// expiry or hash changes, or the player's status, role or membership does, whoever writes it (a route, the command
// line, an operator's UPDATE); a TRUNCATE sends '*'. Each process listens (db/listener.ts) and forgets that player's
// tokens. A cached token is used only once the listener has caught up with every commit made before the request
// came in (NotificationListener.caughtUp: an echo through PostgreSQL shared by every request waiting at that moment),
// so a token revoked, a player suspended or a membership ended is refused by every instance from the moment the
// change is committed, exactly as a read of the database would. When the listener is down, late or reconnecting,
// every request reads the database, as without a cache.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/connect.js';
import type { NotificationListener } from '../../db/listener.js';
import type { ActiveTokenRow } from './tokens.repository.js';

export const CREDENTIALS_CHANNEL = 'gp_credentials';

export class CredentialCache {
  /** the most tokens kept; the oldest kept is dropped first */
  readonly #max: number;
  readonly #entries = new Map<string, ActiveTokenRow>();
  readonly #byPlayer = new Map<number, Set<string>>();
  /** moved by every notification and every reset: a read that began under another generation is not stored */
  #generation = 0;
  #listener: NotificationListener | undefined;

  constructor(max = 50_000) {
    this.#max = max;
  }

  attach(listener: NotificationListener): void {
    this.#listener = listener;
  }

  async close(): Promise<void> {
    await this.#listener?.close();
    this.clear();
  }

  /** A notification on CREDENTIALS_CHANNEL: a player's id, or '*' for every player. */
  notified(payload: string): void {
    const playerId = Number(payload);
    if (payload === '*' || !Number.isSafeInteger(playerId)) this.clear();
    else this.#forgetPlayer(playerId);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#byPlayer.clear();
  }

  /**
   * The token with this hash, unexpired at `now` and last used at `usedSince` or later, once every change committed
   * before this call is known; undefined when it is not cached as such or that cannot be known (then read the
   * database). A token that will be read from the database anyway does not wait for the listener.
   */
  async get(tokenHash: string, now: number, usedSince: number): Promise<ActiveTokenRow | undefined> {
    const usable = (row: ActiveTokenRow | undefined) =>
      row && row.expires_at > now && row.last_used_at !== null && row.last_used_at >= usedSince;
    if (!this.#listener || !usable(this.#entries.get(tokenHash))) return undefined;
    if (!(await this.#listener.caughtUp())) return undefined;
    const row = this.#entries.get(tokenHash);
    return usable(row) ? row : undefined;
  }

  /** Call before reading the database; pass the result to set(). undefined: the listener is down, store nothing. */
  generation(): number | undefined {
    return this.#listener?.up ? this.#generation : undefined;
  }

  /** Stores what a read begun at `generation` returned, unless a notification or a reset came in meanwhile. */
  set(tokenHash: string, row: ActiveTokenRow, generation: number | undefined): void {
    if (generation === undefined || generation !== this.#generation || !this.#listener?.up) return;
    if (!this.#entries.has(tokenHash) && this.#entries.size >= this.#max) this.#evictOldest();
    this.#entries.set(tokenHash, row);
    let hashes = this.#byPlayer.get(row.player_id);
    if (!hashes) this.#byPlayer.set(row.player_id, (hashes = new Set()));
    hashes.add(tokenHash);
  }

  #forgetPlayer(playerId: number): void {
    this.#generation++;
    for (const hash of this.#byPlayer.get(playerId) ?? []) this.#entries.delete(hash);
    this.#byPlayer.delete(playerId);
  }

  #evictOldest(): void {
    const [hash, row] = this.#entries.entries().next().value!;
    this.#entries.delete(hash);
    const hashes = this.#byPlayer.get(row.player_id);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.#byPlayer.delete(row.player_id);
  }
}

/** The cache of a PostgreSQL database with credential_cache on, listening (undefined otherwise: every lookup reads the database). */
export async function startCredentialCache(
  config: Config,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): Promise<CredentialCache | undefined> {
  if (!config.credential_cache || !database.listen) return undefined;
  const cache = new CredentialCache();
  const listener = database.listen([CREDENTIALS_CHANNEL], {
    onNotification: (_channel, payload) => cache.notified(payload),
    onReset: () => cache.clear(),
    onTrouble: (message, error) => log.warn({ err: error }, message),
  });
  cache.attach(listener);
  await listener.start();
  return cache;
}
