// The postMessage envelope between a game (the SDK) and the play shell: one typed shape per direction, and guards that accept nothing else.

export const PROTOCOL = 'gameplatform.sdk/1' as const;

export type EventName = GamePlatform.EventName;
export const EVENT_NAMES: readonly EventName[] = ['entitlement', 'pause', 'limit', 'resume', 'quit'];

/** The calls a game can make, with their parameters and results. */
export interface Methods {
  init: { params: Record<string, never>; result: GamePlatform.InitInfo };
  'saves.list': { params: Record<string, never>; result: GamePlatform.StateSummary[] };
  'saves.load': { params: { slot: number }; result: GamePlatform.State | null };
  'saves.save': {
    params: { slot: number; state: unknown } & GamePlatform.SaveOptions;
    result: GamePlatform.SaveResult;
  };
  'saves.delete': { params: { slot: number }; result: { deleted: boolean } };
  'scores.submit': { params: { score: number } & GamePlatform.ScoreOptions; result: GamePlatform.ScoreResult };
  'leaderboard.read': { params: GamePlatform.LeaderboardQuery; result: GamePlatform.LeaderboardPage };
  'identity.token': { params: Record<string, never>; result: GamePlatform.IdentityToken };
  /** after a `quit` event: the game's quit handlers have finished (the SDK sends it; a game never calls it) */
  'quit.done': { params: Record<string, never>; result: null };
}

export type MethodName = keyof Methods;
export const METHOD_NAMES: readonly MethodName[] = [
  'init',
  'saves.list',
  'saves.load',
  'saves.save',
  'saves.delete',
  'scores.submit',
  'leaderboard.read',
  'identity.token',
  'quit.done',
];

/** game → shell */
export interface RequestMessage<M extends MethodName = MethodName> {
  protocol: typeof PROTOCOL;
  type: 'request';
  id: number;
  method: M;
  params: Methods[M]['params'];
}

/** shell → game, answering one request by its id */
export type ResponseMessage =
  | { protocol: typeof PROTOCOL; type: 'response'; id: number; ok: true; result: unknown }
  | { protocol: typeof PROTOCOL; type: 'response'; id: number; ok: false; error: GamePlatform.ErrorInfo };

/** shell → game, unasked */
export interface EventMessage<E extends EventName = EventName> {
  protocol: typeof PROTOCOL;
  type: 'event';
  event: E;
  data: GamePlatform.EventData[E];
}

export type ShellMessage = ResponseMessage | EventMessage;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** A request from a game: anything else (another protocol, a malformed id, an unknown type) is not one. */
export function isRequestMessage(value: unknown): value is RequestMessage {
  return (
    isObject(value) &&
    value.protocol === PROTOCOL &&
    value.type === 'request' &&
    isId(value.id) &&
    typeof value.method === 'string' &&
    (value.params === undefined || isObject(value.params))
  );
}

export function isKnownMethod(method: string): method is MethodName {
  return (METHOD_NAMES as readonly string[]).includes(method);
}

/** A message from the shell: a response to a request id, or a known event. */
export function isShellMessage(value: unknown): value is ShellMessage {
  if (!isObject(value) || value.protocol !== PROTOCOL) return false;
  if (value.type === 'response') {
    return (
      isId(value.id) &&
      (value.ok === true
        ? 'result' in value
        : value.ok === false && isObject(value.error) && typeof value.error.code === 'string')
    );
  }
  return (
    value.type === 'event' &&
    typeof value.event === 'string' &&
    (EVENT_NAMES as readonly string[]).includes(value.event)
  );
}

export function request<M extends MethodName>(id: number, method: M, params: Methods[M]['params']): RequestMessage<M> {
  return { protocol: PROTOCOL, type: 'request', id, method, params };
}

export function success(id: number, result: unknown): ResponseMessage {
  return { protocol: PROTOCOL, type: 'response', id, ok: true, result };
}

export function failure(id: number, error: GamePlatform.ErrorInfo): ResponseMessage {
  return { protocol: PROTOCOL, type: 'response', id, ok: false, error };
}

export function event<E extends EventName>(name: E, data: GamePlatform.EventData[E]): EventMessage<E> {
  return { protocol: PROTOCOL, type: 'event', event: name, data };
}

/** An error raised by the SDK or the shell rather than the API (HTTP status 0). */
export function localError(code: string, message: string): GamePlatform.ErrorInfo {
  return { code, message, status: 0 };
}
