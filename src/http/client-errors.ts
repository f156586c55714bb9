// Answers that Node's HTTP server gives before Fastify sees a request — headers too large, a header it cannot read,
// a malformed request, a request that took too long, an Expect it does not meet — in the envelope with nosniff,
// written straight to the socket. A client that has already gone (reset) gets nothing and logs nothing.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from './errors.js';

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
  if (socket.writable && !busy?.headersSent) {
    const body = envelope(answer);
    const head = Object.entries({ ...HEADERS, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
  }
  socket.destroySoon();
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
