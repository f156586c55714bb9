// What the shell may call for a game: each SDK method maps to one API route of THIS game's slug, built here and nowhere else.
import { localError, type MethodName, type Methods } from '../../sdk/protocol.js';

export interface ApiCall {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

type Params = Record<string, unknown>;
type Refusal = { error: GamePlatform.ErrorInfo };

const refuse = (message: string): Refusal => ({ error: localError('bad_request', message) });
const isInteger = (v: unknown): v is number => Number.isSafeInteger(v);
const optional = (params: Params, key: string, check: (v: unknown) => boolean) =>
  params[key] === undefined || check(params[key]);
const isString = (v: unknown): v is string => typeof v === 'string';
const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Copies the keys that are set (the API answers each bad value with validation_failed, which reaches the game). */
function defined(params: Params, keys: string[]): Params {
  return Object.fromEntries(keys.filter((k) => params[k] !== undefined).map((k) => [k, params[k]]));
}

/** A build in preview: its saves and scores go to the preview's own routes, which take the build's number. */
export interface PreviewTarget {
  build: number;
}

/** The call as made for a preview: under /v1/studio/games/{slug}/preview, with `build`; identity tokens are not issued. */
function inPreview(call: ApiCall | Refusal, preview: PreviewTarget): ApiCall | Refusal {
  if ('error' in call) return call;
  if (call.path.endsWith('/identity-token'))
    return {
      error: localError('preview', 'Identity tokens are not issued in a preview: release the build to test them'),
    };
  const path = call.path.replace(/^\/v1\/games\/([^/]+)/, '/v1/studio/games/$1/preview');
  return { ...call, path, query: { ...call.query, build: String(preview.build) } };
}

/**
 * The API call for one SDK request, or why it is refused. The slug is the shell's, never the game's: a game
 * can reach its own saves, scores and leaderboard, and nothing else. `session` ties scores to the play session.
 * In a preview (`preview`), the same calls go to the preview's store, apart from the live saves and scores.
 */
export function apiCallFor(
  slug: string,
  session: string,
  method: Exclude<MethodName, 'init'>,
  raw: unknown,
  preview?: PreviewTarget,
): ApiCall | Refusal {
  const call = liveCallFor(slug, session, method, raw);
  return preview ? inPreview(call, preview) : call;
}

function liveCallFor(
  slug: string,
  session: string,
  method: Exclude<MethodName, 'init'>,
  raw: unknown,
): ApiCall | Refusal {
  const params = (isPlainObject(raw) ? raw : {}) as Params;
  const game = `/v1/games/${encodeURIComponent(slug)}`;
  const slotPath = () => (isInteger(params.slot) && params.slot >= 0 ? `${game}/states/${params.slot}` : null);

  switch (method) {
    case 'saves.list':
      return { method: 'GET', path: `${game}/states` };
    case 'saves.load':
    case 'saves.delete': {
      const path = slotPath();
      if (!path) return refuse('slot must be an integer from 0');
      return { method: method === 'saves.load' ? 'GET' : 'DELETE', path };
    }
    case 'saves.save': {
      const path = slotPath();
      if (!path) return refuse('slot must be an integer from 0');
      if (params.state === undefined) return refuse('state must be a JSON value');
      if (!optional(params, 'label', (v) => isString(v) || v === null)) return refuse('label must be a string');
      if (!optional(params, 'expected_version', isInteger)) return refuse('expected_version must be an integer');
      return { method: 'PUT', path, body: defined(params, ['state', 'label', 'expected_version']) };
    }
    case 'scores.submit': {
      if (!isInteger(params.score)) return refuse('score must be an integer');
      if (!optional(params, 'board', isString)) return refuse('board must be a string');
      if (!optional(params, 'meta', isPlainObject)) return refuse('meta must be an object');
      return {
        method: 'POST',
        path: `${game}/scores`,
        body: { ...defined(params, ['score', 'board', 'meta']), play_session: session },
      };
    }
    case 'leaderboard.read': {
      const query: Record<string, string> = {};
      for (const key of ['board', 'period', 'around'] as const) {
        if (params[key] === undefined) continue;
        if (!isString(params[key])) return refuse(`${key} must be a string`);
        query[key] = params[key];
      }
      for (const key of ['limit', 'offset'] as const) {
        if (params[key] === undefined) continue;
        if (!isInteger(params[key])) return refuse(`${key} must be an integer`);
        query[key] = String(params[key]);
      }
      return { method: 'GET', path: `${game}/leaderboard`, query };
    }
    case 'identity.token':
      return { method: 'POST', path: `${game}/identity-token` };
    default:
      return { error: localError('unknown_method', `Unknown method ${String(method)}`) };
  }
}

export interface ApiOutcome {
  status: number;
  body: unknown;
}

/** The result a game receives for an API answer, or the error it is rejected with (the API's code, message and extra fields). */
export function resultFor<M extends Exclude<MethodName, 'init'>>(
  method: M,
  outcome: ApiOutcome,
): { result: Methods[M]['result'] } | Refusal {
  const body = (isPlainObject(outcome.body) ? outcome.body : {}) as {
    ok?: boolean;
    data?: Params;
    meta?: Params;
    error?: Params;
  };
  if (body.ok !== true) {
    const error: Params = isPlainObject(body.error) ? (body.error as Params) : {};
    // An empty slot is a normal answer for a game: null rather than an error.
    if (method === 'saves.load' && outcome.status === 404 && error.code === 'not_found')
      return { result: null as Methods[M]['result'] };
    return {
      error: {
        ...error,
        code: isString(error.code) ? error.code : 'network_error',
        message: isString(error.message) ? error.message : `The service answered HTTP ${outcome.status}`,
        status: outcome.status,
      },
    };
  }
  const data = body.data ?? {};
  switch (method) {
    case 'saves.list':
      return { result: (data.states ?? []) as Methods[M]['result'] };
    case 'saves.load':
      return { result: (data.state ?? null) as Methods[M]['result'] };
    case 'leaderboard.read':
      return {
        result: { ...(body.meta ?? {}), rows: data.leaderboard ?? [], me: data.me ?? null } as Methods[M]['result'],
      };
    default:
      return { result: data as Methods[M]['result'] };
  }
}
