// POST /v1/auth/register, /login, /logout, /forgot-password, /verify-email, /reset-password.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { playerOf } from '../../http/auth.js';
import { Ok, ok } from '../../http/envelope.js';
import {
  AuthResultSchema,
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  VerifyEmailBody,
} from './accounts.schemas.js';
import {
  forgotPassword,
  login,
  logout,
  register,
  resetPassword,
  verifyEmail,
  type AuthResult,
} from './auth.service.js';
import type { GuestCredential } from './guest-claim.js';
import { normaliseBody } from './normalise.js';
import { clearSessionCookie, fromSdk, setSessionCookie, webSessionName } from './session-cookie.js';

const SDK_NOTE =
  'Called with `X-Requested-With: ServiceSDK`, the response also sets the portal session cookie `gp_session` ' +
  '(`__Host-gp_session` in production; HttpOnly, SameSite=Lax, Path=/, signed, Max-Age = token lifetime) holding the token. ' +
  'Such a token is a web session (a signed-in browser, listed by GET /v1/me/sessions), any other an API token ' +
  '(GET /v1/me/tokens lists both). A player has ten active tokens in all: with ten, the new one revokes the least recently ' +
  'used of its own kind (a never-used one first, the oldest), of the other kind only when there is none, and then `revoked_token` in the answer names it.';

const GUEST_NOTE =
  "Called with a guest's credential (its portal session with `X-Requested-With: ServiceSDK`, or its token as Bearer), ";

/** The guest a register or login call may claim: the player behind the credential it carried, if any (the service checks it is a guest). */
function claimable(request: FastifyRequest): GuestCredential | undefined {
  const credential = request.credential;
  return credential?.kind === 'player' ? { playerId: credential.playerId, tokenId: credential.tokenId } : undefined;
}

const body = (result: AuthResult) => ({
  player: result.player,
  token: result.token,
  token_expires_at: result.token_expires_at,
  entitlement: result.entitlement,
  // present only when a token made room (the answer otherwise keeps the spec's four fields)
  ...(result.revoked_token ? { revoked_token: result.revoked_token } : {}),
  ...(result.deletion_canceled ? { deletion_canceled: result.deletion_canceled } : {}),
  ...(result.claimed_guest ? { claimed_guest: result.claimed_guest } : {}),
});

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.post(
    '/v1/auth/register',
    {
      config: {
        auth: 'lenient',
        rateLimitRule: 'register',
        errors: ['email_taken', 'username_taken'],
        setsCookie: true,
      },
      preValidation: normaliseBody({ email: 'trim', password: 'password', display_name: 'text', username: 'trim' }),
      schema: {
        tags: ['auth'],
        operationId: 'register',
        summary: 'Create an account',
        description:
          'Creates the player and a token; a verification mail is sent and the player can play at once. ' +
          'The email is stored lower-case and unique (409 `email_taken`). Without `username` one is derived from ' +
          '`display_name` (ASCII letters, digits and underscores, with a number added when taken); a given username ' +
          'taken in any letter case is 409 `username_taken`. Lengths count Unicode code points after trimming. ' +
          `${GUEST_NOTE}the guest becomes this account: the same player id, with its time played today, saves, scores, ` +
          'favourites and playtime history (the answer says so in `claimed_guest`). ' +
          `Rate limit: rate_limits.register per IP. ${SDK_NOTE}`,
        body: RegisterBody,
        response: { 201: Ok(AuthResultSchema) },
      },
    },
    async (request, reply) => {
      const sdk = fromSdk(request);
      const result = await register(
        ctx,
        request.body,
        sdk ? webSessionName(request) : 'register',
        sdk ? 'web' : 'api',
        claimable(request),
      );
      if (sdk) setSessionCookie(reply, ctx, result.token, result.expiresAt);
      return reply.code(201).send(ok(body(result)));
    },
  );

  app.post(
    '/v1/auth/login',
    {
      config: {
        auth: 'lenient',
        rateLimitRule: 'login',
        errors: ['invalid_credentials', 'forbidden'],
        setsCookie: true,
      },
      preValidation: normaliseBody({ login: 'trim', password: 'password', device_name: 'text' }),
      schema: {
        tags: ['auth'],
        operationId: 'login',
        summary: 'Log in with email or username',
        description:
          '`login` is the email or the username, case-insensitive. An unknown login and a wrong password get the same ' +
          '401 `invalid_credentials` after comparable time. A suspended account is 403 `forbidden` (told only after a ' +
          'correct password). A player has at most 10 active tokens: logging in with ten revokes one to make room, of the same ' +
          'kind while there is one, a never-used token first (the oldest), else the least recently used, and names it in `revoked_token`. ' +
          `\`device_name\` names the token (default "login", or for the SDK "Web portal (<browser>)" from the User-Agent). ` +
          'An account waiting for deletion (DELETE /me) is restored by a login with its password within the grace period; the ' +
          'answer then carries `deletion_canceled: true`. A guest has no password and cannot log in. ' +
          `${GUEST_NOTE}the guest is merged into the account and removed: today's played seconds add up (for a free ` +
          "account at most the daily allowance), the guest's saves fill the account's empty slots only (a slot in use " +
          "is never overwritten), its scores move to the account's with every leaderboard rank exact, its favourites and " +
          "playtime history join the account's; its active play sessions close with reason `merged`. The answer's " +
          '`claimed_guest` counts what moved. ' +
          `Rate limits: rate_limits.login per IP and, separately, per login name. ${SDK_NOTE}`,
        body: LoginBody,
        response: { 200: Ok(AuthResultSchema) },
      },
    },
    async (request, reply) => {
      const sdk = fromSdk(request);
      const name = request.body.device_name || (sdk ? webSessionName(request) : 'login');
      const result = await login(ctx, request.body, name, sdk ? 'web' : 'api', claimable(request));
      if (sdk) setSessionCookie(reply, ctx, result.token, result.expiresAt);
      return ok(body(result));
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { auth: 'player', setsCookie: true },
      schema: {
        tags: ['auth'],
        operationId: 'logout',
        summary: 'Revoke the token used for this call',
        description:
          'The token (or portal session) stops working at once; through the portal session the cookie is also cleared.',
        response: { 200: Ok(Type.Object({ logged_out: Type.Literal(true) })) },
      },
    },
    async (request, reply) => {
      const credential = playerOf(request);
      await logout(ctx, credential.playerId, credential.tokenId);
      if (credential.via === 'cookie') clearSessionCookie(reply, ctx);
      return ok({ logged_out: true as const });
    },
  );

  app.post(
    '/v1/auth/forgot-password',
    {
      config: { auth: 'none', rateLimitRule: 'forgot_password' },
      preValidation: normaliseBody({ email: 'trim' }),
      schema: {
        tags: ['auth'],
        operationId: 'forgotPassword',
        summary: 'Ask for a password reset mail',
        description:
          'Always the same 200 answer, whether or not the address has an account (a malformed address is 422). ' +
          'When it belongs to an active player, a mail links to `{public_url}/reset-password?token=…`; the token works ' +
          'once, for 1 hour. Rate limit: rate_limits.forgot_password per address.',
        body: ForgotPasswordBody,
        response: { 200: Ok(Type.Object({ accepted: Type.Literal(true) })) },
      },
    },
    async (request) => {
      await forgotPassword(ctx, request.body.email);
      return ok({ accepted: true as const });
    },
  );

  app.post(
    '/v1/auth/verify-email',
    {
      config: { auth: 'none', errors: ['invalid_token'] },
      preValidation: normaliseBody({ token: 'trim' }),
      schema: {
        tags: ['auth'],
        operationId: 'verifyEmail',
        summary: 'Confirm the email address',
        description:
          'With the token of the link `{public_url}/verify-email?token=…` mailed at registration (valid 7 days, once). ' +
          'An unknown, used or expired token is 422 `invalid_token`.',
        body: VerifyEmailBody,
        response: { 200: Ok(Type.Object({ email_verified: Type.Literal(true) })) },
      },
    },
    async (request) => ok(await verifyEmail(ctx, request.body.token)),
  );

  app.post(
    '/v1/auth/reset-password',
    {
      config: { auth: 'none', errors: ['invalid_token'] },
      preValidation: normaliseBody({ token: 'trim', password: 'password' }),
      schema: {
        tags: ['auth'],
        operationId: 'resetPassword',
        summary: 'Set a new password with a reset token',
        description:
          'With the token of the reset mail (valid 1 hour, once). Sets the password, revokes every token of the player ' +
          'at once (log in again), invalidates the other reset links and marks the email verified (the link came by mail). ' +
          'An unknown, used or expired token is 422 `invalid_token`.',
        body: ResetPasswordBody,
        response: { 200: Ok(Type.Object({ password_reset: Type.Literal(true) })) },
      },
    },
    async (request) => ok(await resetPassword(ctx, request.body.token, request.body.password)),
  );
}
