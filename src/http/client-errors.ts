// Answers that Node's HTTP server gives before Fastify sees a request — headers too large, a header it cannot read,
// a malformed request, a request that took too long, an Expect it does not meet — in the envelope with nosniff,
// written straight to the socket. A client that has already gone (reset) gets nothing and logs nothing.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorCode } from './errors.js';

interface Answer {
  status: number;
  code: ErrorCode;
  message: string;
}

const HEADERS_TOO_LARGE: Answer = {
  status: 431,
  code: 'headers_too_large',
  message: 'The request headers are too large',
};
const TIMEOUT: Answer = { status: 408, code: 'request_timeout', message: 'The request did not arrive in time' };
const BAD_REQUEST: Answer = { status: 400, code: 'bad_request', message: 'The request cannot be read' };
const EXPECTATION_FAILED: Answer = {
  status: 417,
  code: 'expectation_failed',
  message: 'The only Expect this service meets is 100-continue',
};

const CONNECT_REFUSED: Answer = {
  status: 405,
  code: 'method_not_allowed',
  message: 'This service is no proxy: CONNECT is not served',
};
const NO_HOST: Answer = { status: 400, code: 'bad_request', message: 'An HTTP/1.1 request needs a Host header' };

/** The headers of every such answer: the envelope's type, nosniff and no caching. */
const HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

function envelope(answer: Answer): string {
  return JSON.stringify({ ok: false, error: { code: answer.code, message: answer.message } });
}

function answerOf(error: NodeJS.ErrnoException): Answer {
  if (error.code === 'HPE_HEADER_OVERFLOW') return HEADERS_TOO_LARGE;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'HPE_HEADERS_TIMEOUT') return TIMEOUT;
  return BAD_REQUEST;
}

/** Fastify's clientErrorHandler: the server's 'clientError' event, bound to the Fastify instance. */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone: nothing to answer, nothing worth more than a trace line.
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || socket.destroyed) {
    this.log.trace({ err: error }, 'client connection reset');
    return;
  }
  const answer = answerOf(error);
  this.log.debug({ err: error, status: answer.status }, 'client error below the router');
  // A response already under way on this socket cannot be followed by another.
  const busy = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !busy?.headersSent) answerOnSocket(socket, answer);
  socket.destroySoon();
}

/** Writes the answer in the envelope straight to the socket and closes it. */
function answerOnSocket(socket: Socket, answer: Answer, extra: Record<string, string> = {}): void {
  const body = envelope(answer);
  const headers = { ...HEADERS, ...extra, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
}

/**
 * Node hands a CONNECT to the server's 'connect' event and, with no listener, closes the connection without a word:
 * answer 405 in the envelope instead.
 */
export function registerConnectHandler(app: FastifyInstance): void {
  app.server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    if (socket.writable)
      answerOnSocket(socket, CONNECT_REFUSED, { Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
    socket.destroySoon();
  });
}

/**
 * Node's own check of the Host header (http.requireHostHeader) answers a bare 400; it is off, and this hook answers an
 * HTTP/1.1 request without Host in the envelope. HTTP/1.0 needs no Host and is served.
 */
export function registerHostCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers.host === undefined && request.raw.httpVersion !== '1.0')
      return done(new AppError(NO_HOST.code, NO_HOST.message));
    done();
  });
}

/** Node answers an `Expect` other than 100-continue with a bare 417 unless someone listens: answer in the envelope. */
export function registerExpectationHandler(app: FastifyInstance): void {
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = envelope(EXPECTATION_FAILED);
    response.writeHead(EXPECTATION_FAILED.status, {
      ...HEADERS,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
}
