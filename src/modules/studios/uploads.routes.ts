// /v1/studio/games/{slug}/uploads…: a build's zip uploaded in parts (resumable, from any instance), then completed.
import type { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ok, ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { validatorCompiler } from '../../http/validation.js';
import {
  cancelUpload,
  completeUpload,
  getUpload,
  MAX_PART_BYTES,
  putPart,
  startUpload,
} from '../games/uploads.service.js';
import { gameAccess, type GameAccess } from './access.js';
import { BuildSchema, PartParams, StartUploadBody, UploadParams, UploadSchema } from './builds.schemas.js';
import { GameParams } from './studios.schemas.js';

const tags = ['builds'];
const paramsValidator = validatorCompiler();
const config = { auth: 'player_or_key' as const, scope: 'builds:write' as const };
const uploader = (access: GameAccess) => ({ playerId: access.playerId, keyId: access.keyId });

/** The part route in a scope of its own: only there is a body read as raw bytes, streamed to the store. */
async function partRoute(fastify: FastifyInstance): Promise<void> {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(['application/octet-stream', 'application/zip'], (_request, payload, done) =>
    done(null, payload),
  );
  fastify.addContentTypeParser('*', (_request, _payload, done) =>
    done(
      new AppError('unsupported_media_type', 'Send a part as application/octet-stream (or application/zip)'),
      undefined,
    ),
  );
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.put(
    '/v1/studio/games/:slug/uploads/:upload/parts/:part',
    {
      config: {
        ...config,
        errors: ['not_found', 'payload_too_large', 'upload_busy', 'unsupported_media_type', 'bad_request'],
      },
      // The body is a stream, read by the handler; the path is checked as everywhere.
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : paramsValidator(route)),
      schema: {
        tags,
        operationId: 'putUploadPart',
        summary: 'Send one part of the zip',
        description:
          `The body is the part's bytes (application/octet-stream), with a Content-Length, at most ${MAX_PART_BYTES} bytes; it is streamed into the store. ` +
          'Parts are numbered from 1 in the order of the zip and may be sent in any order, several at once, and again (the last one sent counts): ' +
          'after an interruption, GET the upload and send the parts it lacks. Every part must arrive within http.request_timeout_seconds: keep them small on slow links.',
        params: PartParams,
        consumes: ['application/octet-stream'],
        body: Type.String({ format: 'binary', description: "the part's bytes" }),
        response: { 200: Ok(UploadSchema) },
      },
    },
    async (request) => {
      const length = Number(request.headers['content-length']);
      if (!Number.isSafeInteger(length) || length < 1)
        throw new AppError('bad_request', 'Send a part with a Content-Length of at least 1 byte (not chunked)');
      if (length > MAX_PART_BYTES)
        throw new AppError('payload_too_large', `A part may hold at most ${MAX_PART_BYTES} bytes`);
      const { game } = await gameAccess(app.ctx, request.credential, request.params.slug, {
        scope: 'builds:write',
        write: true,
      });
      const { upload, part } = request.params;
      return ok(await putPart(app.ctx, game, upload, part, request.body as unknown as Readable, length));
    },
  );
}

export async function uploadsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  await app.register(partRoute);

  app.post(
    '/v1/studio/games/:slug/uploads',
    {
      config: { ...config, errors: ['not_found', 'payload_too_large', 'studio_pending'] },
      schema: {
        tags,
        operationId: 'startUpload',
        summary: "Start uploading a build's zip",
        description:
          "Announces the zip's size (at most builds.max_bytes, else 413). Then send its parts, and complete the upload. An unfinished upload is deleted with its parts after builds.upload_ttl_hours.",
        params: GameParams,
        body: StartUploadBody,
        response: { 201: Ok(UploadSchema) },
      },
    },
    async (request, reply) => {
      const access = await gameAccess(ctx, request.credential, request.params.slug, {
        scope: 'builds:write',
        write: true,
      });
      return reply.code(201).send(ok(await startUpload(ctx, access.game, request.body.size, uploader(access))));
    },
  );

  app.get(
    '/v1/studio/games/:slug/uploads/:upload',
    {
      config: { ...config, errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'getUpload',
        summary: 'An upload and the parts it holds',
        description: 'To resume: send the parts it lacks. 404 once it is completed, cancelled or expired.',
        params: UploadParams,
        response: { 200: Ok(UploadSchema) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { scope: 'builds:write' });
      return ok(await getUpload(ctx, game, request.params.upload));
    },
  );

  app.delete(
    '/v1/studio/games/:slug/uploads/:upload',
    {
      config: { ...config, errors: ['not_found'] },
      schema: {
        tags,
        operationId: 'cancelUpload',
        summary: 'Cancel an upload',
        description: 'Deletes the upload and its parts.',
        params: UploadParams,
        response: { 200: Ok(Type.Object({ cancelled: Type.Literal(true) })) },
      },
    },
    async (request) => {
      const { game } = await gameAccess(ctx, request.credential, request.params.slug, { scope: 'builds:write' });
      await cancelUpload(ctx, game, request.params.upload);
      return ok({ cancelled: true as const });
    },
  );

  app.post(
    '/v1/studio/games/:slug/uploads/:upload/complete',
    {
      config: {
        ...config,
        errors: [
          'not_found',
          'upload_incomplete',
          'upload_busy',
          'invalid_build',
          'validation_failed',
          'studio_pending',
        ],
      },
      schema: {
        tags,
        operationId: 'completeUpload',
        summary: 'Complete an upload: make the build',
        description:
          'Joins the parts (1..n, adding up to the announced size, else 409 upload_incomplete) and checks the zip: every entry a regular file with a relative name ' +
          'inside the game (no absolute name, no `..`, no link, no name over 255 bytes), at most builds.max_files files and builds.max_bytes unpacked, each ' +
          'counted while it is inflated (a zip bomb is refused then): else 422 invalid_build with `error.reason` and `error.file`. Then game.json, at the top ' +
          "of the zip (or of its one folder), as `games publish` checks it (422 validation_failed, each field named), its slug this game's. " +
          'Refused, the upload is deleted with its parts and nothing is left in the store. Accepted, the files are stored and the build gets the next number ' +
          '(it is not released: release it, or preview it first).',
        params: UploadParams,
        response: { 201: Ok(BuildSchema) },
      },
    },
    async (request, reply) => {
      const access = await gameAccess(ctx, request.credential, request.params.slug, {
        scope: 'builds:write',
        write: true,
      });
      const build = await completeUpload(ctx, access.game, request.params.upload, uploader(access));
      return reply.code(201).send(ok(build));
    },
  );
}
