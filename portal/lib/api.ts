// Every API call of the portal: same origin, the portal cookie, and X-Requested-With: ServiceSDK (the header the cookie needs).
import { rateLimitedText } from './wait-text.js';

export const SDK_HEADER = { 'X-Requested-With': 'ServiceSDK' } as const;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** validation_failed: one message per field */
    readonly fields: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface ApiResult<T, M> {
  data: T;
  meta: M;
  status: number;
}

export interface CallOptions {
  body?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined>;
  keepalive?: boolean;
}

export function apiUrl(path: string, query?: CallOptions['query']): string {
  const url = new URL(path, location.origin);
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url.pathname + url.search;
}

/** Calls the API; resolves with data and meta, or throws ApiError with the envelope's code, message and fields. */
export async function api<T = any, M = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResult<T, M>> {
  const headers: Record<string, string> = { ...SDK_HEADER, Accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await send(apiUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: 'same-origin',
    keepalive: options.keepalive,
  });
  const envelope = (await response.json().catch(() => null)) as {
    ok?: boolean;
    data?: T;
    meta?: M;
    error?: Record<string, unknown>;
  } | null;
  if (envelope?.ok === true) return { data: envelope.data as T, meta: envelope.meta as M, status: response.status };
  throw errorOf(response.status, envelope?.error);
}

/** fetch, with a network failure as an ApiError in the portal's words. */
export async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch {
    throw new ApiError(0, 'network_error', 'The service cannot be reached. Check your connection and try again.');
  }
}

/** The ApiError of a failed answer, read from its envelope (for a call that does not go through api(): a download). */
export async function failureOf(response: Response): Promise<ApiError> {
  const envelope = (await response.json().catch(() => null)) as { error?: Record<string, unknown> } | null;
  return errorOf(response.status, envelope?.error);
}

function errorOf(status: number, error: Record<string, unknown> = {}): ApiError {
  const { code, message, fields, ...extra } = error as {
    code?: string;
    message?: string;
    fields?: Record<string, string>;
  };
  const text = code === 'rate_limited' ? rateLimitedText((extra as { retry_after?: unknown }).retry_after) : message;
  return new ApiError(
    status,
    code ?? 'network_error',
    text ?? `The service answered HTTP ${status}`,
    fields ?? {},
    extra,
  );
}
