// GET /media/games/{id}/{file}: listing pictures uploaded through the API, streamed from the store. A new name per
// upload, so a file never changes and may be cached for good.
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../http/errors.js';
import { sendObject } from '../../services/storage/send-object.js';
import { mediaObjectKey } from './listing-media.service.js';

const ONE_YEAR = 31_536_000;

export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  app.get('/media/games/:id/:file', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
    const { id, file } = request.params as { id: string; file: string };
    const key = mediaObjectKey(`games/${id}/${file}`);
    const stat = key ? await app.ctx.storage.head(key) : null;
    if (!key || !stat) throw notFound('No such picture');
    reply
      .type('image/webp')
      .header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`)
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (!(await sendObject(request, reply, app.ctx.storage, key, stat))) throw notFound('No such picture');
    return reply;
  });
}
