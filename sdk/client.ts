// The SDK's core, free of the DOM: numbered requests with timeouts, responses matched by id, errors rebuilt, events dispatched.
import {
  EVENT_NAMES,
  isShellMessage,
  localError,
  request,
  type EventName,
  type MethodName,
  type Methods,
  type RequestMessage,
} from './protocol.js';

export interface ClientOptions {
  /** sends one request to the shell; absent when the game does not run inside a shell */
  post?: (message: RequestMessage) => void;
  /** without a shell: answers a call in the page (local mode, perhaps once game.json is read), or throws the ErrorInfo it is refused with */
  local?: <M extends MethodName>(
    method: M,
    params: Methods[M]['params'],
  ) => Methods[M]['result'] | Promise<Methods[M]['result']>;
  /** how long a call waits for the shell's answer */
  timeoutMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** reports a handler that threw (the other handlers still run) */
  onHandlerError?: (error: unknown) => void;
}

interface Pending {
  method: MethodName;
  params: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: unknown;
  /** sent again after a login: a second 401 rejects */
  again: boolean;
}

type Handler = (data: never) => unknown;

/** How long the shell waits for the game's quit handlers (the SDK tells it when they are done sooner). */
export const QUIT_WAIT_MS = 2000;

export class SdkError extends Error implements GamePlatform.SdkError {
  override readonly name = 'GamePlatformError' as const;
  readonly code: string;
  readonly status: number;
  readonly details: GamePlatform.ErrorInfo;

  constructor(details: GamePlatform.ErrorInfo) {
    super(details.message);
    this.code = details.code;
    this.status = details.status;
    this.details = details;
  }
}

export function isSdkError(error: unknown): error is GamePlatform.SdkError {
  return error instanceof SdkError;
}

export class Client {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** calls the API refused with 401 (signed out while playing): sent again once the shell says the player is back */
  private held: Pending[] = [];
  /**
   * The shell said the player was signed out (`pause`, reason `signed_out`) and asks them to log in: only then is a
   * 401 held. A shell that asks nobody (a preview) gets its 401s rejected as any other error.
   */
  private awaitingLogin = false;
  private readonly handlers = new Map<EventName, Set<Handler>>();
  private readonly timeoutMs: number;

  constructor(private readonly options: ClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    for (const name of EVENT_NAMES) this.handlers.set(name, new Set());
  }

  call<M extends MethodName>(method: M, params: Methods[M]['params']): Promise<Methods[M]['result']> {
    const { post, local } = this.options;
    if (!post && local) {
      // structuredClone: the game gets a copy, as it would through postMessage
      return Promise.resolve()
        .then(() => local(method, params))
        .then(
          (result) => structuredClone(result),
          (error) => {
            const info = error as Partial<GamePlatform.ErrorInfo>;
            throw new SdkError(
              typeof info?.code === 'string'
                ? { ...info, code: info.code, message: String(info.message), status: Number(info.status) || 0 }
                : localError('bad_request', String(error)),
            );
          },
        );
    }
    if (!post)
      return Promise.reject(
        new SdkError(localError('no_shell', 'The game is not running inside the Game Platform play shell')),
      );
    return new Promise((resolve, reject) => {
      this.send({
        method,
        params,
        resolve: resolve as (value: unknown) => void,
        reject,
        timer: undefined,
        again: false,
      });
    });
  }

  /** Posts one call (again after a login: a new id, the same promise) with its timeout. */
  private send(call: Pending): void {
    const id = this.nextId++;
    const setTimer = this.options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    call.timer = setTimer(() => {
      this.pending.delete(id);
      call.reject(new SdkError(localError('timeout', `The shell did not answer ${call.method} in time`)));
    }, this.timeoutMs);
    this.pending.set(id, call);
    try {
      this.options.post!(request(id, call.method, call.params as never));
    } catch (error) {
      this.settle(id);
      call.reject(new SdkError(localError('bad_request', `The call cannot be sent: ${(error as Error).message}`)));
    }
  }

  /** Handles one message from the shell; returns false when it is not one (the caller has already checked who sent it). */
  receive(data: unknown): boolean {
    if (!isShellMessage(data)) return false;
    if (data.type === 'event') {
      // Back after a login: the calls refused meanwhile go again, before the game hears it may go on.
      const reason = (data.data as { reason?: string }).reason;
      if (data.event === 'pause' && reason === 'signed_out') this.awaitingLogin = true;
      if (data.event === 'resume' && reason === 'signed_in') {
        this.awaitingLogin = false;
        this.sendHeld();
      }
      const results = this.dispatch(data.event, data.data);
      if (data.event === 'quit') void this.quitDone(results);
      return true;
    }
    const pending = this.settle(data.id);
    if (!pending) return true; // answered after its timeout: dropped
    if (data.ok) pending.resolve(data.result);
    else if (data.error.status === 401 && this.awaitingLogin && !pending.again && pending.method !== 'quit.done')
      this.held.push(pending);
    else pending.reject(new SdkError({ ...data.error, status: Number(data.error.status) || 0 }));
    return true;
  }

  private dispatch(name: EventName, payload: unknown): unknown[] {
    const results: unknown[] = [];
    for (const handler of [...this.handlers.get(name)!]) {
      try {
        results.push((handler as (d: unknown) => unknown)(payload));
      } catch (error) {
        this.options.onHandlerError?.(error);
      }
    }
    return results;
  }

  private sendHeld(): void {
    const held = this.held;
    this.held = [];
    for (const call of held) this.send({ ...call, again: true });
  }

  /** After `quit`: once the handlers' promises settle, tells the shell it may remove the game now. */
  private async quitDone(results: unknown[]): Promise<void> {
    const settled = await Promise.allSettled(results);
    for (const outcome of settled) if (outcome.status === 'rejected') this.options.onHandlerError?.(outcome.reason);
    if (this.options.post) await this.call('quit.done', {}).catch(() => undefined);
  }

  on<E extends EventName>(name: E, handler: (data: GamePlatform.EventData[E]) => unknown): () => void {
    const set = this.handlers.get(name);
    if (!set) throw new TypeError(`Unknown event "${String(name)}"; use one of ${EVENT_NAMES.join(', ')}`);
    set.add(handler as Handler);
    return () => this.off(name, handler);
  }

  off<E extends EventName>(name: E, handler: (data: GamePlatform.EventData[E]) => unknown): void {
    this.handlers.get(name)?.delete(handler as Handler);
  }

  /** Requests still waiting for an answer (those held for a login too). */
  get waiting(): number {
    return this.pending.size + this.held.length;
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    this.pending.delete(id);
    (this.options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>)))(pending.timer);
    return pending;
  }
}

const isSlot = (slot: unknown): slot is number => Number.isSafeInteger(slot) && (slot as number) >= 0;

/** The public SDK object over a client; argument checks that need no server happen here. */
export function createSdk(client: Client): GamePlatform.SDK {
  const badSlot = (slot: unknown) =>
    Promise.reject(new SdkError(localError('bad_request', `slot must be an integer from 0, got ${String(slot)}`)));
  return {
    version: '1',
    init: () => client.call('init', {}),
    on: (name, handler) => client.on(name, handler),
    off: (name, handler) => client.off(name, handler),
    isError: isSdkError,
    saves: {
      list: () => client.call('saves.list', {}),
      load: <T>(slot: number) =>
        isSlot(slot) ? (client.call('saves.load', { slot }) as Promise<GamePlatform.State<T> | null>) : badSlot(slot),
      save: (slot, state, options = {}) => {
        if (!isSlot(slot)) return badSlot(slot);
        if (state === undefined)
          return Promise.reject(new SdkError(localError('bad_request', 'state must be a JSON value, not undefined')));
        return client.call('saves.save', { ...pick(options, ['label', 'expected_version']), slot, state });
      },
      delete: (slot) => (isSlot(slot) ? client.call('saves.delete', { slot }) : badSlot(slot)),
    },
    scores: {
      submit: (score, options = {}) => {
        if (!Number.isSafeInteger(score))
          return Promise.reject(
            new SdkError(localError('bad_request', `score must be an integer, got ${String(score)}`)),
          );
        return client.call('scores.submit', { ...pick(options, ['board', 'meta']), score });
      },
    },
    leaderboard: {
      read: (query = {}) =>
        client.call('leaderboard.read', pick(query, ['board', 'period', 'limit', 'offset', 'around'])),
    },
    identityToken: () => client.call('identity.token', {}),
  };
}

/** Copies the named keys that are set: the envelope carries nothing a game did not mean to send. */
function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
