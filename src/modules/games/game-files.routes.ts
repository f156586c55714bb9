// GET /g/{slug}/…: the game files, outside /v1 and the OpenAPI document, errors still in the JSON envelope. Registered with prefix /g.
import fastifyStatic from '@fastify/static';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { notFound } from '../../http/errors.js';
import { parseGamePath, resolveGameFile, type CachePolicy } from './game-files.service.js';

const CACHE_CONTROL: Record<CachePolicy, string> = {
  immutable: 'public, max-age=31536000, immutable',
  revalidate: 'public, no-cache',
  'no-store': 'no-store',
};

/**
 * Game pages run in the shell's sandboxed iframe (an opaque origin). The same sandbox applies when a game page is opened
 * on its own, so a game's scripts never run with the portal's origin (its cookie, its API).
 */
const SANDBOX = 'sandbox allow-scripts allow-forms allow-modals allow-orientation-lock allow-pointer-lock allow-popups allow-presentation allow-downloads';

const SEND_OPTIONS = { cacheControl: false, etag: true, lastModified: true, acceptRanges: true, dotfiles: 'deny', index: false } as const;

export async function gameFilesRoutes(fastify: FastifyInstance): Promise<void> {
  // serve: false — only reply.sendFile, scoped to this plugin; every path is checked before it reaches send.
  await fastify.register(fastifyStatic, { serve: false });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.addHook('onRequest', async (_request, reply) => {
    // The opaque-origin frame loads these by plain tags: helmet's same-origin policy would block them.
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    reply.header('Content-Security-Policy', SANDBOX);
    reply.header('Cache-Control', 'no-store');
  });
  // Errors are never cached, whatever the route had set before failing.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
    return payload;
  });

  // A file that is not there is 404 (the root handler would offer HEAD as another method: 405).
  app.setNotFoundHandler((request) => {
    throw notFound(`Nothing at ${request.method} ${request.url.split('?')[0]}`);
  });

  app.get(
    '/:slug/*',
    {
      config: { auth: 'none' },
      schema: { hide: true, querystring: Type.Object({ session: Type.Optional(Type.String()) }) },
    },
    async (request, reply) => {
      const target = parseGamePath(request.raw.url ?? '');
      if (!target) throw notFound(`Nothing at ${request.method} ${request.url.split('?')[0]}`);
      const answer = await resolveGameFile(app.ctx, target, request.query.session);
      if (answer.kind === 'redirect') return reply.code(302).header('Location', answer.location).header('Referrer-Policy', 'no-referrer').send();
      reply.header('Cache-Control', CACHE_CONTROL[answer.cache]);
      if (answer.cache === 'no-store') reply.header('Referrer-Policy', 'no-referrer');
      return reply.sendFile(answer.file, answer.root, SEND_OPTIONS);
    },
  );
}
