// A PostgreSQL connection of its own that LISTENs, with a barrier: caughtUp() tells when every notification committed
// before the call has been handled, so what was learnt from them is as fresh as a read made at that moment.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ListenerEvents {
  /** a notification on one of the channels listened to */
  onNotification(channel: string, payload: string): void;
  /** the connection was lost, or opened again: whatever was learnt from notifications may be stale */
  onReset(): void;
  /** the connection failed or an echo did not come back in time (logged by the caller) */
  onTrouble?(message: string, error?: unknown): void;
}

/** An echo not back within this long counts as a lost connection: its waiters read the database instead. */
const ECHO_TIMEOUT_MS = 2000;
const RECONNECT_FIRST_MS = 100;
/** how the listener's connection shows in pg_stat_activity */
export const LISTENER_APPLICATION_NAME = 'gameplatform listener';
const RECONNECT_MAX_MS = 10_000;

interface Waiter {
  /** the number of the first echo sent after the call */
  echo: number;
  resolve(caughtUp: boolean): void;
}

/**
 * The barrier rests on a guarantee of PostgreSQL's NOTIFY: a session receives the notifications of different
 * transactions in the order they committed. So when the listener receives an echo (a NOTIFY it sent itself, on a
 * channel of its own) it has received every notification committed before the echo was sent. caughtUp() waits for
 * the first echo sent after it was called: one echo in flight at a time, each answering every call made while the one
 * before it was out, so a busy process sends one echo per round trip, not one per call.
 * The echoes commit with synchronous_commit off: a NOTIFY needs a transaction id, and an echo need not survive a crash.
 */
export class NotificationListener {
  readonly #url: string;
  readonly #channels: readonly string[];
  readonly #events: ListenerEvents;
  readonly #echoChannel = `gp_echo_${randomBytes(8).toString('hex')}`;
  #client: pg.Client | undefined;
  #up = false;
  #closed = false;
  #sent = 0;
  #inFlight = false;
  #echoTimer: NodeJS.Timeout | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #reconnectDelay = RECONNECT_FIRST_MS;
  #waiters: Waiter[] = [];
  #reconnects = 0;

  constructor(url: string, channels: readonly string[], events: ListenerEvents) {
    this.#url = url;
    this.#channels = channels;
    this.#events = events;
  }

  /** Connected, listening, and its last echo (if any is out) not late. */
  get up(): boolean {
    return this.#up;
  }

  /** the channels it listens on (its echo channel aside) */
  get channels(): readonly string[] {
    return this.#channels;
  }

  /** how many times it lost its connection (or its first one failed) and set out to connect again */
  get reconnects(): number {
    return this.#reconnects;
  }

  /** closed for good (close()) */
  get closed(): boolean {
    return this.#closed;
  }

  /** Connects and listens; resolves after the first attempt, whatever its outcome (it retries in the background). */
  start(): Promise<void> {
    return this.#connect();
  }

  /**
   * Resolves true once every notification committed before this call has reached onNotification; false when that
   * cannot be known (not connected, or the echo was lost): the caller then reads the database.
   */
  caughtUp(): Promise<boolean> {
    if (!this.#up) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.#waiters.push({ echo: this.#sent + 1, resolve });
      this.#sendEcho();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    const client = this.#client;
    this.#drop();
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.#client = client;
    client.on('error', (error) => this.#lost(client, 'connection lost', error));
    client.on('end', () => this.#lost(client, 'connection ended'));
    let probed: (() => void) | undefined;
    client.on('notification', ({ channel, payload = '' }) => {
      if (this.#client !== client) return;
      if (channel !== this.#echoChannel) this.#events.onNotification(channel, payload);
      else if (payload === 'probe') probed?.();
      else this.#echoed(Number(payload));
    });
    try {
      await client.connect();
      const listens = [...this.#channels, this.#echoChannel]
        .map((channel) => `listen ${client.escapeIdentifier(channel)};`)
        .join(' ');
      await client.query(`set synchronous_commit = off; ${listens}`);
      // Behind a pooler in transaction mode the NOTIFY may run on another server connection than the LISTEN, and
      // no echo would ever come back: then never go up, rather than make requests wait for echoes.
      let timer: NodeJS.Timeout | undefined;
      const echoed = await Promise.race([
        new Promise<boolean>((resolve) => {
          probed = () => resolve(true);
          void client.query(`notify ${this.#echoChannel}, 'probe'`).catch(() => resolve(false));
        }),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ECHO_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (!echoed)
        throw new Error(
          `no echo of a NOTIFY within ${ECHO_TIMEOUT_MS} ms: behind a pooler in transaction mode LISTEN does not work`,
        );
    } catch (error) {
      this.#lost(client, 'cannot listen', error);
      return;
    }
    if (this.#client !== client) return;
    // Anything learnt before this LISTEN may have missed a notification.
    this.#events.onReset();
    this.#up = true;
    this.#reconnectDelay = RECONNECT_FIRST_MS;
  }

  #sendEcho(): void {
    const client = this.#client;
    if (this.#inFlight || !this.#up || !client || !this.#waiters.length) return;
    this.#inFlight = true;
    const echo = ++this.#sent;
    this.#echoTimer = setTimeout(
      () => this.#lost(client, `echo ${echo} not back after ${ECHO_TIMEOUT_MS} ms`),
      ECHO_TIMEOUT_MS,
    );
    // A failed NOTIFY means a broken connection: the client's 'error' or 'end' follows, or the echo timer fires.
    client.query(`notify ${this.#echoChannel}, '${echo}'`).catch(() => undefined);
  }

  #echoed(echo: number): void {
    if (echo !== this.#sent) return;
    clearTimeout(this.#echoTimer);
    this.#inFlight = false;
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting) {
      if (waiter.echo <= echo) waiter.resolve(true);
      else this.#waiters.push(waiter);
    }
    this.#sendEcho();
  }

  /** Forgets the connection: its waiters read the database, and what it taught is dropped. */
  #drop(): void {
    clearTimeout(this.#echoTimer);
    const wasUp = this.#up;
    this.#client = undefined;
    this.#up = false;
    this.#inFlight = false;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve(false);
    if (wasUp) this.#events.onReset();
  }

  #lost(client: pg.Client, message: string, error?: unknown): void {
    if (this.#client !== client) return;
    this.#drop();
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#reconnects++;
    this.#events.onTrouble?.(`notification listener: ${message}; reconnecting in ${this.#reconnectDelay} ms`, error);
    this.#reconnectTimer = setTimeout(() => void this.#connect(), this.#reconnectDelay);
    this.#reconnectTimer.unref();
    this.#reconnectDelay = Math.min(this.#reconnectDelay * 2, RECONNECT_MAX_MS);
  }
}
