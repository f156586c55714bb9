// The portal's pages asked on localhost or 127.0.0.1 go to the portal's own name when that is a `*.localhost` one (the
// default, gameplatform.localhost): there the games are on the portal's site and keep their storage, and the page's
// API calls pass the Origin check. The API, the SDK script and the probes answer on any name.
import type { FastifyInstance } from 'fastify';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Adds the redirect to the portal's routes (registered inside their plugin, so it applies to them alone). */
export function redirectLoopbackToPortalName(app: FastifyInstance): void {
  const publicUrl = new URL(app.ctx.config.public_url);
  if (!publicUrl.hostname.endsWith('.localhost')) return;
  app.addHook('onRequest', (request, reply, done) => {
    if (
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      !LOOPBACK.has(request.hostname) ||
      request.url.startsWith('/sdk/')
    )
      return done();
    // 302, not 301: a browser keeps no permanent redirect that a later public_url would contradict.
    void reply.redirect(`${publicUrl.origin}${request.originalUrl}`, 302);
  });
}
