// Renders every error in the envelope: AppErrors as they are, framework errors mapped to their codes, anything else as a 500 without internals.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { foreignKeyViolation } from '../db/unique.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { AppError, type ErrorCode } from './errors.js';
import { formatMessage } from './validation.js';

/** Framework and plugin error codes, mapped to ours. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_BAD_URL: 'bad_request',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported_media_type',
  FST_REQ_FILE_TOO_LARGE: 'payload_too_large',
  FST_PARTS_LIMIT: 'payload_too_large',
  FST_FILES_LIMIT: 'payload_too_large',
  FST_FIELDS_LIMIT: 'payload_too_large',
};

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_json: 'The request body is not valid JSON',
  unsupported_media_type: 'Send the body as application/json',
  payload_too_large: 'The request body is too large',
  bad_request: 'The request cannot be read',
  rate_limited: 'Too many requests; try again later',
  unavailable: 'The service is unavailable; try again shortly',
};

function joinPath(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/** Turns Ajv errors into `{field: message}`, one message per field. */
export function validationFields(
  errors: FastifySchemaValidationError[],
  context: string | undefined,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const e of errors) {
    let name = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = e.message ?? 'is not valid';
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required') {
      name = joinPath(name, String(params.missingProperty));
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      name = joinPath(name, String(params.additionalProperty));
      message = 'is not a known field';
    } else if (e.keyword === 'format') {
      message = formatMessage(params.format) ?? message;
    }
    if (!name) {
      name = context === 'body' ? 'body' : (context ?? 'request');
      if (context === 'body' && e.keyword === 'type') message = 'must be a JSON object';
    }
    // defineProperty, not assignment: a field named __proto__ (an unknown field of a state body) must stay a field
    if (!Object.hasOwn(fields, name))
      Object.defineProperty(fields, name, { value: message, enumerable: true, writable: true, configurable: true });
  }
  return fields;
}

function send(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ ok: false, error: { code, message, ...extra } });
}

export function errorHandler(this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) return send(reply, error.status, error.code, error.message, error.extra);

  if (error.validation) {
    const fields = validationFields(error.validation, error.validationContext);
    return send(reply, 422, 'validation_failed', 'Some fields are not valid', { fields });
  }

  const mapped =
    (error.code && FRAMEWORK_CODES[error.code]) ||
    (error.statusCode && error.statusCode < 500 ? STATUS_CODES[error.statusCode] : undefined);
  if (mapped) {
    const code: ErrorCode =
      mapped === 'payload_too_large' ? (request.routeOptions.config.tooLargeCode ?? mapped) : mapped;
    const status = code === 'state_too_large' ? 413 : statusOf(mapped, error.statusCode);
    return send(
      reply,
      status,
      code,
      code === 'state_too_large' ? 'The state is larger than 262,144 bytes' : (MESSAGES[code] ?? error.message),
    );
  }

  // The player the request acts for was removed while it ran (a purge, or a guest merged into an account): sign in
  // again. Only for a player's request: any other foreign-key violation is a fault and stays a 500.
  if (foreignKeyViolation(error) && request.credential?.kind === 'player') {
    request.log.warn(
      { err: error },
      'a row the request refers to was removed while it ran (its player, purged or merged)',
    );
    return send(
      reply,
      401,
      'unauthenticated',
      'The account no longer exists (deleted, or a guest merged into an account): log in again',
    );
  }

  // The database went away (a failover, a restart, a lost connection) or is busy: the transaction was rolled back.
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('Retry-After', '5');
    return send(reply, 503, 'unavailable', MESSAGES.unavailable!);
  }

  request.log.error({ err: error, reqId: request.id }, 'unhandled error');
  return send(reply, 500, 'internal_error', 'Something went wrong on our side', { request_id: request.id });
}

function statusOf(code: ErrorCode, fallback: number | undefined): number {
  const byCode: Partial<Record<ErrorCode, number>> = {
    invalid_json: 400,
    unsupported_media_type: 415,
    payload_too_large: 413,
    bad_request: 400,
  };
  return byCode[code] ?? fallback ?? 400;
}
