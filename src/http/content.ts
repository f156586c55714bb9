// Body parsing: JSON only. No text/plain or form parser, so a cross-site form can never reach a JSON route.
import type { FastifyInstance } from 'fastify';

/** Default body limit for JSON routes; the state routes raise theirs. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // An empty body with a JSON content type is "no body": routes with a required body answer 422.
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    parseJson(request, body as string, done);
  });
}
