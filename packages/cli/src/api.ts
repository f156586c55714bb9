// The platform's JSON API as the command line uses it: a base URL, a token, the envelope read and its errors thrown.

/** An answer `{ok: false, error}` (or no answer at all: code network_error), with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface CallOptions {
  body?: unknown;
  /** raw bytes, sent as application/octet-stream with this length */
  bytes?: { stream: ReadableStream<Uint8Array>; length: number };
}

export class Api {
  readonly base: string;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    this.base = url.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    let body: RequestInit['body'];
    if (options.bytes) {
      headers['content-type'] = 'application/octet-stream';
      headers['content-length'] = String(options.bytes.length);
      body = options.bytes.stream;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(`${this.base}/v1${path}`, {
        method,
        headers,
        body,
        ...(options.bytes ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message;
      throw new ApiError(0, 'network_error', `Cannot reach ${this.base}: ${cause ?? (error as Error).message}`);
    }
    const envelope = (await response.json().catch(() => null)) as {
      ok?: boolean;
      data?: T;
      error?: { code?: string; message?: string } & Record<string, unknown>;
    } | null;
    if (envelope?.ok === true) return envelope.data as T;
    const error = envelope?.error ?? {};
    throw new ApiError(
      response.status,
      typeof error.code === 'string' ? error.code : 'http_error',
      typeof error.message === 'string' ? error.message : `${this.base} answered HTTP ${response.status}`,
      error,
    );
  }
}

/** Whether a failed call is worth trying again (the network, or the service busy or restarting). */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);
}
