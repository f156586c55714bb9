// GET /g/{slug}/…: the game files, outside /v1 and the OpenAPI document, errors still in the JSON envelope. Registered
// with prefix /g. Requests on a game's own origin reach it rewritten (game-origin.ts); asked on the portal's origin,
// a game path is redirected there, so no game page ever runs in the portal's origin.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { onlyExpiries } from '../../http/cookie-bomb.js';
import { notFound } from '../../http/errors.js';
import { chooseVariant, sendVariant } from './game-file-send.js';
import { gameOriginLocation, parseGamePath, resolveGameFile, type CachePolicy } from './game-files.service.js';
import { isGameRequest } from './game-origin.js';

const CACHE_CONTROL: Record<CachePolicy, string> = {
  immutable: 'public, max-age=31536000, immutable',
  revalidate: 'public, no-cache',
  'no-store': 'no-store',
};

export async function gameFilesRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const frameAncestors = `frame-ancestors 'self' ${app.ctx.config.public_origin}`;

  app.addHook('onRequest', async (_request, reply) => {
    // The portal frames the game across origins (its frame-ancestors here replaces X-Frame-Options: SAMEORIGIN), and its
    // cover shows on portal pages: both need these files readable cross-origin.
    reply.removeHeader('x-frame-options');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    reply.header('Content-Security-Policy', frameAncestors);
    reply.header('Cache-Control', 'no-store');
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    // Errors are never cached, whatever the route had set before failing; and no cookie is ever set on a game's origin
    // (it may only expire another game's cookie bomb: http/cookie-bomb.ts).
    if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
    const expiries = onlyExpiries(reply.getHeader('set-cookie'));
    reply.removeHeader('set-cookie');
    if (expiries.length) reply.header('set-cookie', expiries);
    return payload;
  });

  // A file that is not there is 404 (the root handler would offer HEAD as another method: 405).
  app.setNotFoundHandler((request) => {
    throw notFound(`Nothing at ${request.method} ${(request.originalUrl ?? request.url).split('?')[0]}`);
  });

  app.get(
    '/:slug/*',
    {
      config: { auth: 'none' },
      schema: { hide: true, querystring: Type.Object({ session: Type.Optional(Type.String()) }) },
    },
    async (request, reply) => {
      const rawUrl = request.raw.url ?? '';
      const target = parseGamePath(rawUrl);
      if (!target) throw notFound(`Nothing at ${request.method} ${request.originalUrl.split('?')[0]}`);
      if (!isGameRequest(request.raw)) return redirect(reply, gameOriginLocation(app.ctx, target, queryOf(rawUrl)));
      const answer = await resolveGameFile(app.ctx, target, {
        session: request.query.session,
        referer: request.headers.referer,
        query: queryOf(rawUrl),
      });
      if (answer.kind === 'redirect') return redirect(reply, answer.location);
      const store = app.ctx.storage;
      const variant = await chooseVariant(store, answer.roots, answer.file, request.headers);
      if (!variant) throw notFound(`Nothing at ${request.method} ${request.originalUrl.split('?')[0]}`);
      reply.header('Cache-Control', CACHE_CONTROL[answer.cache]);
      // An entry file's URL holds its session token: never sent on; a preview's only to its own origin, where it names
      // the build's file set for the page's root-relative URLs (game-files.service resolvePlain).
      if (answer.cache === 'no-store') reply.header('Referrer-Policy', answer.preview ? 'same-origin' : 'no-referrer');
      if (answer.isolated) {
        // game.json cross_origin_isolated: with the shell's own COOP/COEP, the frame gets crossOriginIsolated (threads).
        reply
          .header('Cross-Origin-Embedder-Policy', 'require-corp')
          .header('Cross-Origin-Opener-Policy', 'same-origin');
      }
      if (!(await sendVariant(request, reply, store, variant)))
        throw notFound(`Nothing at ${request.method} ${request.originalUrl.split('?')[0]}`);
      return reply;
    },
  );
}

const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?')) : '');

/** Redirects keep the session token out of Referer headers and out of caches. */
function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(302).header('Location', location).header('Referrer-Policy', 'no-referrer').send();
}
