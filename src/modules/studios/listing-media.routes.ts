// /v1/studio/games/{slug}/cover and …/screenshots: the listing's pictures, sent as the image's bytes (a console's
// drag-and-drop sends the File as the body).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { validatorCompiler } from '../../http/validation.js';
import {
  addScreenshot,
  MAX_SCREENSHOTS,
  MEDIA_MAX_BYTES,
  removeScreenshot,
  setCover,
} from '../games/listing-media.service.js';
import { findStudioGame } from '../games/studio-games.service.js';
import { gameAccess } from './access.js';
import { GameParams, ScreenshotParams, StudioGameSchema } from './studios.schemas.js';
import { gameViewOf } from './studios.service.js';

const tags = ['studios'];
const paramsValidator = validatorCompiler();
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream'];
const PICTURE = `The body is the picture's bytes (JPG, PNG, GIF or WebP by content, else 415; at most ${MEDIA_MAX_BYTES} bytes, else 413; damaged or over 40 megapixels, 422), turned upright, stripped of metadata and stored as WebP under a new URL.`;

/** The upload routes in a scope of their own: only there is a body read as bytes. */
async function pictureRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: MEDIA_MAX_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  fastify.addContentTypeParser('*', (_request, _payload, done) =>
    done(
      new AppError(
        'unsupported_media_type',
        'Send the picture as its bytes: image/png, image/jpeg, image/gif or image/webp',
      ),
      undefined,
    ),
  );
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const route = {
    config: {
      auth: 'player' as const,
      errors: ['not_found', 'payload_too_large', 'unsupported_media_type', 'studio_pending'] as const,
    },
    bodyLimit: MEDIA_MAX_BYTES,
    validatorCompiler: (r: { schema: object; httpPart?: string }) =>
      r.httpPart === 'body' ? () => true : paramsValidator(r),
  };
  const body = Type.String({ format: 'binary', description: 'the picture' });

  app.put(
    '/v1/studio/games/:slug/cover',
    {
      ...route,
      config: { ...route.config, errors: [...route.config.errors] },
      schema: {
        tags,
        operationId: 'setCover',
        summary: "Upload the listing's cover",
        description: `${PICTURE} It replaces the build's cover file as the game's cover_url (fitted inside 1280×1280).`,
        params: GameParams,
        consumes: IMAGE_TYPES.slice(0, 4),
        body,
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      await setCover(ctx, request.params.slug, request.body as unknown as Buffer);
      return ok(await gameViewOf(ctx, (await findStudioGame(ctx, request.params.slug))!));
    },
  );

  app.post(
    '/v1/studio/games/:slug/screenshots',
    {
      ...route,
      config: { ...route.config, errors: [...route.config.errors] },
      schema: {
        tags,
        operationId: 'addScreenshot',
        summary: 'Add a screenshot to the listing',
        description: `${PICTURE} Added at the end (fitted inside 1920×1920); at most ${MAX_SCREENSHOTS} (422 beyond).`,
        params: GameParams,
        consumes: IMAGE_TYPES.slice(0, 4),
        body,
        response: { 201: Ok(StudioGameSchema) },
      },
    },
    async (request, reply) => {
      await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      await addScreenshot(ctx, request.params.slug, request.body as unknown as Buffer);
      return reply.code(201).send(ok(await gameViewOf(ctx, (await findStudioGame(ctx, request.params.slug))!)));
    },
  );
}

export async function listingMediaRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  await app.register(pictureRoutes);

  app.delete(
    '/v1/studio/games/:slug/cover',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'removeCover',
        summary: 'Remove the uploaded cover',
        description: "The live build's cover file is the game's cover again.",
        params: GameParams,
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      await setCover(ctx, request.params.slug, null);
      return ok(await gameViewOf(ctx, (await findStudioGame(ctx, request.params.slug))!));
    },
  );

  app.delete(
    '/v1/studio/games/:slug/screenshots/:position',
    {
      config: { auth: 'player', errors: ['not_found', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'removeScreenshot',
        summary: 'Remove a screenshot',
        description: 'By its position in the list, 1 for the first; the ones after it move up.',
        params: ScreenshotParams,
        response: { 200: Ok(StudioGameSchema) },
      },
    },
    async (request) => {
      await gameAccess(ctx, request.credential, request.params.slug, { write: true });
      await removeScreenshot(ctx, request.params.slug, request.params.position);
      return ok(await gameViewOf(ctx, (await findStudioGame(ctx, request.params.slug))!));
    },
  );
}
