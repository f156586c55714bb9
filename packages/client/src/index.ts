// @gameplatform/client: a typed client of the Game Platform API. The types come from the service's OpenAPI document
// (schema.ts, generated); the runtime is openapi-fetch: `client.GET('/v1/…', { params, body })` gives `{ data }` or
// `{ error }`, each typed for that route and status.
import createFetchClient, {
  type Client,
  type ClientOptions,
  type FetchResponse,
  type MaybeOptionalInit,
} from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** The named shapes of the API (Entitlement, OwnPlayer, Player, Game, …, and one `…Error` per error code). */
export type Schemas = components['schemas'];
export type Entitlement = Schemas['Entitlement'];
export type OwnPlayer = Schemas['OwnPlayer'];
export type Player = Schemas['Player'];
export type Game = Schemas['Game'];
export type Membership = Schemas['Membership'];

/** Every `error` object of the envelope `{ ok: false, error }`, discriminated by `code`, with its extra fields. */
export type ApiErrorBody = Schemas[Extract<keyof Schemas, `${string}Error`>];
/** The stable error codes. */
export type ErrorCode = ApiErrorBody['code'];
/** The error object of one code, e.g. `ErrorOf<'version_conflict'>` has `current_version`. */
export type ErrorOf<C extends ErrorCode> = Extract<ApiErrorBody, { code: C }>;

export interface GamePlatformClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** the platform's address (its public_url), e.g. `https://play.example.com`; the paths start with /v1 */
  baseUrl: string;
  /** a player token `agp_…` or a developer key `agk_…`, sent as `Authorization: Bearer` */
  token?: string;
}

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof paths];
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/**
 * The body a route takes, closed: a field the API does not know (it answers 422 for it) does not compile. openapi-fetch
 * infers the body's type from the call, which would let any extra field through.
 */
type ClosedBody<Init, Allowed> = Init extends { body?: infer Given }
  ? Given extends object
    ? NonNullable<Allowed> extends object
      ? { body?: { [K in Exclude<keyof Given, keyof NonNullable<Allowed>>]: never } }
      : unknown
    : unknown
  : unknown;

type Allowed<P extends keyof paths, M extends Method> =
  NonNullable<MaybeOptionalInit<paths[P], M>> extends {
    body?: infer B;
  }
    ? B
    : never;

type InitOf<Init> =
  RequiredKeys<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

type ClosedMethod<M extends Method> = <P extends PathsWith<M>, Init extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitOf<Init & ClosedBody<Init, Allowed<P, M>>>
) => Promise<FetchResponse<paths[P][M] & Record<string | number, any>, Init, `${string}/${string}`>>;

/** openapi-fetch's client over the API's paths, whose request bodies are closed (ClosedBody). */
export type GamePlatformClient = Omit<Client<paths>, Uppercase<Method>> & {
  [M in Method as Uppercase<M>]: ClosedMethod<M>;
};

/** A client for every /v1 route: `client.GET(path, init)`, `client.POST(…)`, … */
export function createClient(options: GamePlatformClientOptions): GamePlatformClient {
  const { baseUrl, token, ...rest } = options;
  const client = createFetchClient<paths>({ baseUrl: baseUrl.replace(/\/+$/, ''), ...rest }) as GamePlatformClient;
  if (token) {
    client.use({
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      },
    });
  }
  return client;
}

/** A call answered with an error: `error` is the envelope's error object (null when the answer was not the envelope, e.g. a proxy's page). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly error: ApiErrorBody | null,
  ) {
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
  }

  /** The error code, or null when the answer was not the envelope. */
  get code(): ErrorCode | null {
    return this.error?.code ?? null;
  }
}

/** Whether `e` is an ApiError of this code; narrows `e.error` to that code's fields. */
export function isApiError<C extends ErrorCode>(e: unknown, code: C): e is ApiError & { error: ErrorOf<C> } {
  return e instanceof ApiError && e.error?.code === code;
}

function envelopeError(value: unknown): ApiErrorBody | null {
  if (!value || typeof value !== 'object') return null;
  const error = (value as { ok?: unknown; error?: unknown }).error;
  if (
    (value as { ok?: unknown }).ok !== false ||
    !error ||
    typeof error !== 'object' ||
    typeof (error as { code?: unknown }).code !== 'string'
  )
    return null;
  return error as ApiErrorBody;
}

/**
 * The success envelope `{ ok: true, data, meta? }` of a call, or a thrown ApiError:
 * `const { data } = await unwrap(client.GET('/v1/me'))`.
 */
export async function unwrap<D, E>(
  call: Promise<{ data?: D; error?: E; response: Response }> | { data?: D; error?: E; response: Response },
): Promise<D> {
  const result = await call;
  if (result.response.ok && result.data !== undefined) return result.data;
  throw new ApiError(result.response.status, envelopeError(result.error));
}
