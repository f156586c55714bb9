// 404 for unknown paths and 405 (with Allow) for a known path asked with the wrong method.
// Under /v1 both are JSON envelopes; a browser asking for any other unknown path gets the portal's HTML 404 page.
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface NotFoundOptions {
  /** renders the HTML 404 page for a path outside the API */
  htmlPage?: (request: FastifyRequest, path: string) => string;
}

/** The API's own paths: these always answer in the JSON envelope. */
export const isApiPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');

export function registerNotFound(app: FastifyInstance, options: NotFoundOptions = {}): void {
  // A shadow router that knows every path, so a miss can tell "no such path" from "not with this method".
  const shadow = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!METHODS.includes(method as HTTPMethod)) continue;
      try {
        shadow.on(method as HTTPMethod, route.url, () => undefined);
      } catch {
        // the same path and method registered twice (a HEAD Fastify adds for a GET): already known
      }
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A route that exists for this method sent the request here itself (a static file that is not there): plain 404.
    if (shadow.find(request.method as HTTPMethod, path))
      throw new AppError('not_found', `Nothing at ${request.method} ${path}`);
    const allowed = METHODS.filter((m) => m !== request.method && shadow.find(m, path));
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      throw new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}`);
    }
    if (options.htmlPage && !isApiPath(path) && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply
        .code(404)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(options.htmlPage(request, path));
    }
    throw new AppError('not_found', `Nothing at ${request.method} ${path}`);
  });
}
