// POST and DELETE /v1/me/avatar, the avatar files under /avatars/… and the generated initials SVG.
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { AppError, notFound, validationFailed } from '../../http/errors.js';
import { AvatarSchema } from './accounts.schemas.js';
import { initialsSvg, validInitials } from './avatar-url.js';
import { sendObject } from '../../services/storage/send-object.js';
import {
  AVATAR_FILE,
  AVATAR_MAX_BYTES,
  AVATAR_MAX_PIXELS,
  avatarKey,
  removeAvatar,
  setAvatar,
} from './avatar.service.js';

const notMultipart = () =>
  new AppError('unsupported_media_type', 'Send the avatar as multipart/form-data in the field "avatar"');
const tooLarge = () => new AppError('payload_too_large', 'The avatar is larger than 2 MB (2,097,152 bytes)');
const malformed = () =>
  new AppError(
    'bad_request',
    'The multipart/form-data body cannot be read (no boundary, a damaged part or no closing boundary)',
  );
const ONE_YEAR = 31_536_000;
/** Room for the multipart framing around a 2 MB file: boundaries, part headers and the few small fields allowed. */
const FRAMING_BYTES = 64 * 1024;
const FIELD_MAX_BYTES = 1024;

/**
 * Reading the upload: errors of the body itself (busboy's "Boundary not found", "Unexpected end of form", a malformed
 * part header, a connection cut short) are the client's, 400 bad_request; the multipart plugin's own limits keep
 * their codes (FST_…, mapped by the error handler); a file over the limit is 413.
 */
async function readUpload<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (typeof code === 'string' && code.startsWith('FST_')) throw error;
    throw malformed();
  }
}

/** The upload route in its own scope: only here is multipart/form-data parsed; JSON routes keep answering 415 to it. */
async function uploadRoute(fastify: FastifyInstance): Promise<void> {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(notMultipart(), undefined));
  await fastify.register(multipart, {
    limits: { fileSize: AVATAR_MAX_BYTES, fieldSize: FIELD_MAX_BYTES, files: 1, fields: 10, parts: 11 },
  });
  // An upload announced larger than the file limit plus its framing is refused before a byte of it is read.
  fastify.addHook('preParsing', async (request, reply) => {
    const length = Number(request.headers['content-length']);
    if (length > AVATAR_MAX_BYTES + FRAMING_BYTES) {
      reply.header('Connection', 'close');
      throw tooLarge();
    }
  });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/me/avatar',
    {
      config: {
        auth: 'player',
        errors: ['bad_request', 'payload_too_large', 'unsupported_media_type', 'account_required'],
      },
      // The multipart body is read by the handler; the body schema documents it.
      validatorCompiler: () => () => true,
      schema: {
        tags: ['account'],
        operationId: 'uploadAvatar',
        summary: 'Upload an avatar',
        description:
          'multipart/form-data with the picture in the field `avatar`. The type is read from the content (the file ' +
          'name and declared type are ignored): JPG, PNG, GIF or WebP, else 415 `unsupported_media_type`. At most 2 MB ' +
          `(2,097,152 bytes), else 413 \`payload_too_large\`. Pictures over ${AVATAR_MAX_PIXELS.toLocaleString('en')} pixels ` +
          '(decompression bombs) and damaged files are 422 `validation_failed`. The first frame is turned upright, ' +
          'centre-cropped to 256×256, stripped of all metadata and stored as WebP under a new URL each time (served ' +
          'from `/avatars/…`, cacheable for a year).',
        consumes: ['multipart/form-data'],
        body: Type.Object({ avatar: Type.String({ format: 'binary', description: 'the picture' }) }),
        response: { 200: Ok(AvatarSchema) },
      },
    },
    async (request) => {
      const player = playerOf(request);
      if (!request.isMultipart()) throw notMultipart();
      const file = await readUpload(() => request.file());
      if (file?.fieldname !== 'avatar')
        throw validationFailed({ avatar: 'is required (a file in the field "avatar")' });
      const data = await readUpload(() => file.toBuffer());
      return ok(await setAvatar(app.ctx, player.playerId, data));
    },
  );
}

export async function avatarRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(uploadRoute);

  app.delete(
    '/v1/me/avatar',
    {
      config: { auth: 'player', errors: ['account_required'] },
      schema: {
        tags: ['account'],
        operationId: 'deleteAvatar',
        summary: 'Remove the avatar',
        description:
          'Deletes the uploaded picture; the answer gives the generated initials avatar (an SVG whose colour comes from the username).',
        response: { 200: Ok(AvatarSchema) },
      },
    },
    async (request) => ok(await removeAvatar(app.ctx, playerOf(request).playerId)),
  );

  // Uploaded avatars, streamed from the store: a new file name per upload, so a file never changes and may be cached for good.
  app.get('/avatars/:file', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const stat = AVATAR_FILE.test(file) ? await app.ctx.storage.head(avatarKey(file)) : null;
    if (!stat) throw notFound('No such avatar');
    reply.type('image/webp').header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`);
    if (!(await sendObject(request, reply, app.ctx.storage, avatarKey(file), stat))) throw notFound('No such avatar');
    return reply;
  });

  // Initials avatars: hue and initials are in the path, so the picture for a URL never changes either.
  app.get(
    '/avatars/initials/:hue/:file',
    { config: { auth: 'none' }, schema: { hide: true } },
    async (request, reply) => {
      const { hue, file } = request.params as { hue: string; file: string };
      const initials = file.endsWith('.svg') ? file.slice(0, -4) : '';
      const h = /^\d{1,3}$/.test(hue) ? Number(hue) : NaN;
      if (!(h >= 0 && h < 360) || !validInitials(initials)) throw notFound('No such avatar');
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`)
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(initialsSvg(initials, h));
    },
  );
}
