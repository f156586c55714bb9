// Account self-service: POST /v1/me/verification-email, /me/password, /me/email, /auth/confirm-email; DELETE /v1/me; GET /v1/me/export.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import { formatTimestamp } from '../../time.js';
import { normaliseBody } from './normalise.js';
import {
  ChangeEmailBody,
  ChangePasswordBody,
  ConfirmEmailBody,
  DeleteMeBody,
  DeletionScheduledSchema,
  EmailChangedSchema,
  EmailChangeRequestedSchema,
  ExportSchema,
  PasswordChangedSchema,
  VerificationSentSchema,
} from './self-service.schemas.js';
import {
  changePassword,
  confirmEmailChange,
  DELETION_GRACE_DAYS,
  exportData,
  requestEmailChange,
  resendVerification,
  scheduleDeletion,
} from './self-service.service.js';
import { clearSessionCookie } from './session-cookie.js';

const PASSWORD_LIMIT = 'Rate limit: rate_limits.login per player (a wrong current password counts too).';

export async function selfServiceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.post(
    '/v1/me/verification-email',
    {
      config: {
        auth: 'player',
        rateLimitRule: 'verification_email',
        errors: ['already_verified', 'account_required'],
      },
      schema: {
        tags: ['account'],
        operationId: 'resendVerificationEmail',
        summary: 'Send the verification mail again',
        description:
          'Mails a new link `{public_url}/verify-email?token=…` (valid 7 days, once) to the account address; earlier links ' +
          'keep working until used or expired. A verified address is 409 `already_verified`. ' +
          'Rate limit: rate_limits.forgot_password per player.',
        response: { 200: Ok(VerificationSentSchema) },
      },
    },
    async (request) => ok(await resendVerification(ctx, playerOf(request).playerId)),
  );

  app.post(
    '/v1/me/password',
    {
      config: { auth: 'player', rateLimitRule: 'password_check', errors: ['wrong_password', 'account_required'] },
      preValidation: normaliseBody({ current_password: 'password', new_password: 'password' }),
      schema: {
        tags: ['account'],
        operationId: 'changePassword',
        summary: 'Change the password',
        description:
          'Needs the current password (403 `wrong_password` otherwise); the new one follows the register rules (8 to 256 ' +
          'characters). Every other token and portal session of the player is revoked at once; the token or session of ' +
          'this call keeps working. Unused password-reset links stop working. ' +
          PASSWORD_LIMIT,
        body: ChangePasswordBody,
        response: { 200: Ok(PasswordChangedSchema) },
      },
    },
    async (request) => {
      const credential = playerOf(request);
      return ok(
        await changePassword(
          ctx,
          credential.playerId,
          credential.tokenId,
          request.body.current_password,
          request.body.new_password,
        ),
      );
    },
  );

  app.post(
    '/v1/me/email',
    {
      config: {
        auth: 'player',
        rateLimitRule: 'email_change',
        errors: ['wrong_password', 'email_taken', 'account_required'],
      },
      preValidation: normaliseBody({ email: 'trim', password: 'password' }),
      schema: {
        tags: ['account'],
        operationId: 'changeEmail',
        summary: 'Ask to change the email address',
        description:
          'Needs the current password (403 `wrong_password`). Mails a link `{public_url}/confirm-email?token=…` (valid 24 hours, ' +
          'once) to the NEW address and a notice to the current one; the address changes only when the link is used ' +
          '(POST /auth/confirm-email). An address held by an account is 409 `email_taken`, here and again at the confirmation; ' +
          'the current address itself is 422 `validation_failed`. The mail to the new address carries no text of the ' +
          "caller's (no display name). " +
          PASSWORD_LIMIT +
          ' Besides, rate_limits.forgot_password per player and per new address.',
        body: ChangeEmailBody,
        response: { 202: Ok(EmailChangeRequestedSchema) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(ok(await requestEmailChange(ctx, playerOf(request).playerId, request.body.email, request.body.password))),
  );

  app.post(
    '/v1/auth/confirm-email',
    {
      config: { auth: 'none', errors: ['invalid_token', 'email_taken'] },
      preValidation: normaliseBody({ token: 'trim' }),
      schema: {
        tags: ['auth'],
        operationId: 'confirmEmail',
        summary: 'Confirm a change of email address',
        description:
          'With the token of the link mailed to the new address by POST /me/email. Sets the address, which counts as ' +
          'verified; the other unused mail links of the account (verification, reset, change) stop working. An unknown, ' +
          'used or expired token is 422 `invalid_token`; an address taken since the request is 409 `email_taken`.',
        body: ConfirmEmailBody,
        response: { 200: Ok(EmailChangedSchema) },
      },
    },
    async (request) => ok(await confirmEmailChange(ctx, request.body.token)),
  );

  app.delete(
    '/v1/me',
    {
      config: {
        auth: 'player',
        rateLimitRule: 'password_check',
        errors: ['wrong_password', 'account_required'],
        setsCookie: true,
      },
      preValidation: normaliseBody({ password: 'password' }),
      schema: {
        tags: ['account'],
        operationId: 'deleteMe',
        summary: 'Delete the account (after a grace period)',
        description:
          `Needs the current password (403 \`wrong_password\`). The account is scheduled for deletion in ${DELETION_GRACE_DAYS} ` +
          'days: at once every token and portal session is revoked, the public profile is gone and a notice is mailed. ' +
          'Logging in with the password before the date cancels the deletion (the login answer says `deletion_canceled`). ' +
          "After it, the account is purged by the server's periodic sweep (or `gameplatform players purge-deleted`): the " +
          'player row with email, names, bio and avatar, tokens, mail links, saves, favourites, play sessions, playtime and ' +
          'every score are removed, and the player leaves every leaderboard; the username and email become free. Aggregate ' +
          'game counters (plays, hours played) keep their totals. Through the portal session the cookie is also cleared. ' +
          PASSWORD_LIMIT,
        body: DeleteMeBody,
        response: { 202: Ok(DeletionScheduledSchema) },
      },
    },
    async (request, reply) => {
      const credential = playerOf(request);
      const result = await scheduleDeletion(ctx, credential.playerId, request.body.password);
      if (credential.via === 'cookie') clearSessionCookie(reply, ctx);
      return reply.code(202).send(ok(result));
    },
  );

  app.get(
    '/v1/me/export',
    {
      config: { auth: 'player' },
      schema: {
        tags: ['account'],
        operationId: 'exportMe',
        summary: 'Download the own data (JSON)',
        description:
          'Everything the service holds about the player, as one JSON document (the usual envelope) with ' +
          '`Content-Disposition: attachment; filename="gameplatform-<username>-<date>.json"`: the own profile, membership, ' +
          'entitlement, every token by prefix (never the token or its hash), favourites, save slots with their payloads, ' +
          'scores, play sessions and the daily playtime. Never a password hash.',
        response: { 200: Ok(ExportSchema) },
      },
    },
    async (request, reply) => {
      const data = await exportData(ctx, playerOf(request).playerId);
      const day = formatTimestamp(ctx.clock.now()).slice(0, 10);
      reply.header('content-disposition', `attachment; filename="gameplatform-${data.player.username}-${day}.json"`);
      reply.header('cache-control', 'no-store');
      return ok(data);
    },
  );
}
