// A small wrapper over app.inject that parses the JSON envelope.
import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

export interface CallOptions {
  headers?: Record<string, string>;
  /** Bearer credential */
  token?: string;
  /** a JSON body (serialised) or a raw string/Buffer body */
  body?: unknown;
  /** send `body` as is, with this content type */
  contentType?: string;
  query?: Record<string, string | number | boolean>;
  cookies?: Record<string, string>;
}

export interface Response<T = any> {
  status: number;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body (undefined when the body is not JSON) */
  body: T;
  text: string;
  /** the body's bytes as sent (compressed ones stay compressed) */
  rawPayload: Buffer;
  cookies: Array<{ name: string; value: string; [k: string]: unknown }>;
}

export type Requester = Record<
  'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options',
  (url: string, options?: CallOptions) => Promise<Response>
>;

export function requester(app: FastifyInstance): Requester {
  const call = async (method: string, url: string, options: CallOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined;
    if (options.body !== undefined) {
      if (options.contentType) {
        payload = options.body as string | Buffer;
        headers['content-type'] = options.contentType;
      } else {
        payload = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      payload,
      query: options.query
        ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)]))
        : undefined,
      cookies: options.cookies,
    });
    let body: unknown;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    return {
      status: res.statusCode,
      headers: res.headers as IncomingHttpHeaders,
      body,
      text: res.body,
      rawPayload: res.rawPayload,
      cookies: res.cookies as Response['cookies'],
    };
  };
  return {
    get: (url, o) => call('GET', url, o),
    post: (url, o) => call('POST', url, o),
    put: (url, o) => call('PUT', url, o),
    patch: (url, o) => call('PATCH', url, o),
    delete: (url, o) => call('DELETE', url, o),
    head: (url, o) => call('HEAD', url, o),
    options: (url, o) => call('OPTIONS', url, o),
  };
}
