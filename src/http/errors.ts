// The error codes, with their status and meaning: one table for the handler and the OpenAPI document.
export const ERROR_CATALOG = {
  bad_request: {
    status: 400,
    description: 'the request line or headers cannot be read (malformed URL or Content-Length)',
  },
  invalid_json: { status: 400, description: 'the body is not parseable JSON' },
  unauthenticated: { status: 401, description: 'credential missing, unknown, expired or revoked on a protected route' },
  invalid_credentials: {
    status: 401,
    description: 'failed login: unknown login or wrong password (one body for both)',
  },
  limit_reached: { status: 402, description: 'POST /play/start with the daily free allowance used up' },
  premium_required: {
    status: 402,
    description: 'POST /play/start of a premium-only game by a player without Unlimited',
  },
  wrong_password: {
    status: 403,
    description: 'the current password sent to confirm an account change (password, email, deletion) is wrong',
  },
  account_required: {
    status: 403,
    description:
      'a guest player asked for what needs an account (API tokens, email, password, profile, deletion): register or log in first',
  },
  forbidden: { status: 403, description: 'valid credential of the wrong kind, or for another game or player' },
  insufficient_scope: {
    status: 403,
    description: 'developer key without the needed scope; error.required_scope names it',
  },
  studio_pending: {
    status: 403,
    description: 'the studio signed up by itself and waits for an operator to approve it',
  },
  csrf_rejected: { status: 403, description: 'cookie-session call without the header X-Requested-With: ServiceSDK' },
  cross_origin_forbidden: { status: 403, description: "request whose Origin is not public_url's origin" },
  https_required: { status: 403, description: 'plain HTTP in production' },
  game_unavailable: { status: 403, description: 'POST /play/start for a game that cannot be launched' },
  play_not_allowed: {
    status: 403,
    description: 'entry file requested without an active play session that still has time',
  },
  not_found: { status: 404, description: 'unknown route, game, player, token or empty save slot' },
  leaderboard_disabled: {
    status: 404,
    description: 'score or leaderboard route of a game with leaderboard.enabled false',
  },
  method_not_allowed: { status: 405, description: 'known path, wrong method; the Allow header lists the methods' },
  request_timeout: {
    status: 408,
    description: 'the request line, headers or body did not arrive within the time the server allows (settings http.*)',
  },
  email_taken: {
    status: 409,
    description: 'register, or a change of email (asked or confirmed), with an email already in use',
  },
  already_verified: {
    status: 409,
    description: 'POST /me/verification-email when the email address is verified already',
  },
  username_taken: {
    status: 409,
    description: 'register or PATCH /me with a username already in use (case-insensitive)',
  },
  token_limit_reached: { status: 409, description: 'POST /me/tokens with 10 active tokens' },
  slug_taken: { status: 409, description: 'a studio or game is created with a slug already in use' },
  already_member: { status: 409, description: 'the player is a member of the studio already' },
  last_owner: {
    status: 409,
    description: 'the change would leave the studio without an owner (remove or demote another owner first)',
  },
  upload_incomplete: {
    status: 409,
    description:
      'an upload is completed before its parts add up to its size; error.received and error.size give the bytes',
  },
  upload_busy: {
    status: 409,
    description: 'the upload is being completed already (a second complete, or a part sent meanwhile)',
  },
  build_pruned: {
    status: 409,
    description: 'the build is pruned (its files are deleted): it can no longer be released or previewed',
  },
  no_previous_build: {
    status: 409,
    description: 'a rollback when no build was live before the current one (release a build by its number instead)',
  },
  season_busy: {
    status: 409,
    description: 'a new season of the board is being started by another request at the same time',
  },
  version_conflict: {
    status: 409,
    description: 'expected_version differs from the stored version; error.current_version gives it',
  },
  session_ended: {
    status: 410,
    description:
      'heartbeat on a closed play session; error.reason says why it closed (replaced, timeout, limit, quit, …)',
  },
  payload_too_large: { status: 413, description: "body over the route's limit, or an avatar over 2 MB" },
  state_too_large: { status: 413, description: 'save state over 262,144 bytes of JSON text' },
  unsupported_media_type: {
    status: 415,
    description:
      'a body that is not application/json on a JSON route; an avatar that is not JPG, PNG, GIF or WebP by content',
  },
  expectation_failed: { status: 417, description: 'an Expect header other than 100-continue' },
  validation_failed: {
    status: 422,
    description: 'invalid field or query parameter; error.fields maps each name to a message',
  },
  invalid_build: {
    status: 422,
    description:
      'a build zip that cannot be taken: error.reason says why (not_a_zip, corrupt, absolute_name, path_traversal, bad_name, name_too_long, link, special_file, duplicate, encrypted, unsupported_compression, too_many_files, too_large, zip_bomb) and error.file names the entry',
  },
  invalid_token: {
    status: 422,
    description: 'an email-verification, password-reset or email-change token that is unknown, used or expired',
  },
  invalid_play_session: {
    status: 422,
    description: "score names a play session that is not this player's for this game",
  },
  score_out_of_range: {
    status: 422,
    description:
      "a score below the game's leaderboard.min or above its leaderboard.max (game.json); error.min and error.max give the bounds",
  },
  idempotency_key_reused: { status: 422, description: 'an Idempotency-Key sent again with a different body' },
  invalid_identity_token: {
    status: 422,
    description:
      'POST /dev/identity-token/verify with a token that cannot be trusted; error.reason says why (malformed, bad_signature, expired, other_game, player_unavailable)',
  },
  guest_limit_reached: {
    status: 429,
    description:
      'POST /auth/guest from an address that made guests.per_ip_per_day guests today; log in or register to play. Retry-After gives the seconds to the reset',
  },
  rate_limited: { status: 429, description: 'too many requests; Retry-After gives the seconds to wait' },
  headers_too_large: {
    status: 431,
    description: "request headers over the server's limit (http.max_header_bytes, 1 MiB by default)",
  },
  internal_error: {
    status: 500,
    description: 'a fault of the service; the message holds no internals, error.request_id finds it in the log',
  },
  unavailable: { status: 503, description: 'the service is shutting down or its database is unreachable' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** An error a client caused or may handle: rendered as `{ok:false, error:{code, message, ...extra}}`. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = ERROR_CATALOG[code].status;
  }
}

export const notFound = (what = 'Not found') => new AppError('not_found', what);

export const validationFailed = (fields: Record<string, string>, message = 'Some fields are not valid') =>
  new AppError('validation_failed', message, { fields });
