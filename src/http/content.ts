// Body parsing: JSON only. No text/plain or form parser, so a cross-site form can never reach a JSON route.
import type { FastifyInstance } from 'fastify';
import { AppError, validationFailed } from './errors.js';
import { nestsDeeperThan } from './json-scan.js';

/** Default body limit for JSON routes; the state routes raise theirs. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * How deep a JSON body may nest, counting the body itself: `{"meta": {"a": [1]}}` is 3 deep. No route but the save
 * states needs more (a score's `meta` holds at most 500 characters of JSON, so at most about 250 levels).
 */
export const MAX_JSON_DEPTH = 256;

export interface JsonParserOptions {
  /**
   * Keep keys named `__proto__` and `constructor` as plain data instead of refusing the body (400 invalid_json).
   * Only for routes that store a value and never merge it into another object (save states).
   */
  keepPrototypeKeys?: boolean;
  /** The deepest nesting allowed (default MAX_JSON_DEPTH); a deeper body is refused before it is parsed. */
  maxDepth?: number;
  /** The error for a body nested deeper than maxDepth (default: 422 validation_failed on `body`). */
  tooDeep?: () => Error;
}

const tooDeepDefault = () =>
  validationFailed(
    { body: `is nested too deeply (more than ${MAX_JSON_DEPTH} levels of arrays and objects)` },
    'The body is nested too deeply',
  );

/** Installs the JSON parser on `app` (the root, or a plugin's own context to change it for that plugin's routes). */
export function registerJsonParser(app: FastifyInstance, options: JsonParserOptions = {}): void {
  const poisoning = options.keepPrototypeKeys ? 'ignore' : 'error';
  const parseJson = app.getDefaultJsonParser(poisoning, poisoning);
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const tooDeep = options.tooDeep ?? tooDeepDefault;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // An empty body with a JSON content type is "no body": routes with a required body answer 422.
    if (text === '' || text.trim() === '') return done(null, undefined);
    if (nestsDeeperThan(text, maxDepth)) return done(tooDeep(), undefined);
    parseJson(request, text, done);
  });
}

/**
 * No request body is decoded from a Content-Encoding (gzip, br, …): a body that declares one is 415 before it is read,
 * rather than 400 invalid_json from parsing compressed bytes. `identity` is no encoding. GET and HEAD are not checked.
 */
export function registerBodyEncodingCheck(app: FastifyInstance): void {
  // Synchronous (done): it runs for every request, GETs included, and an async hook costs a promise each.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    // GET and HEAD carry no body here (Fastify reads none): nothing to refuse.
    if (request.method === 'GET' || request.method === 'HEAD') return done(null, payload);
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (encoding && encoding !== 'identity') {
      return done(
        new AppError(
          'unsupported_media_type',
          `Request bodies are not decoded: send the body without Content-Encoding (got ${JSON.stringify(encoding.slice(0, 40))})`,
        ),
      );
    }
    done(null, payload);
  });
}
