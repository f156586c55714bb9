// Sends a stored object as send did for files on disk: ETag and Last-Modified, 304 for a fresh validator, one byte
// range (206, or 416 outside the object), HEAD without a body; the bytes are streamed from the store, never buffered.
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ObjectRange, ObjectStat, ObjectStore } from './store.js';

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match (weak comparison) first, else If-Modified-Since at second precision (RFC 9110 §13.2.2). */
function isFresh(request: FastifyRequest, stat: ObjectStat): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch) {
    if (noneMatch.trim() === '*') return true;
    const mine = opaque(stat.etag);
    return noneMatch.split(',').some((tag) => opaque(tag) === mine);
  }
  const since = request.headers['if-modified-since'];
  if (since) {
    const time = Date.parse(since);
    return !Number.isNaN(time) && Math.floor(stat.lastModified.getTime() / 1000) * 1000 <= time;
  }
  return false;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; 'unsatisfiable' past the end; null: send the whole object. */
export function parseRange(header: string | undefined, size: number): ObjectRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, other units, malformed: the whole object (a server may ignore Range).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}

/** If-Range holding an ETag or a date: the range applies only while it still names this object. */
function rangeStillApplies(request: FastifyRequest, stat: ObjectStat): boolean {
  const header = request.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (!ifRange) return true;
  if (ifRange.includes('"')) return !ifRange.trim().startsWith('W/') && ifRange.trim() === stat.etag;
  const time = Date.parse(ifRange);
  return !Number.isNaN(time) && Math.floor(stat.lastModified.getTime() / 1000) * 1000 <= time;
}

/**
 * Answers with the object at `key` whose stat the caller has (from head). The caller sets Content-Type, Cache-Control
 * and Content-Encoding. Returns false when the object vanished between head and get (the caller answers 404).
 * It never returns the reply: a reply is a thenable that settles when the answer is finished (or the client leaves),
 * so an async caller returning or awaiting it would wait for the whole download and see an abort as its own error.
 */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  key: string,
  stat: ObjectStat,
): Promise<boolean> {
  reply
    .header('ETag', stat.etag)
    .header('Last-Modified', stat.lastModified.toUTCString())
    .header('Accept-Ranges', 'bytes');
  if (isFresh(request, stat)) {
    reply.code(304).send();
    return true;
  }
  let range =
    request.headers.range && rangeStillApplies(request, stat) ? parseRange(request.headers.range, stat.size) : null;
  if (range === 'unsatisfiable') {
    reply.code(416).header('Content-Range', `bytes */${stat.size}`).header('Cache-Control', 'no-store').send();
    return true;
  }
  if (range && range.start === 0 && range.end === stat.size - 1) range = null;
  const length = range ? range.end - range.start + 1 : stat.size;
  if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${stat.size}`);
  reply.header('Content-Length', String(length));
  // HEAD: an empty stream keeps Content-Length (Fastify's HEAD handling sets 0 for an empty body).
  if (request.method === 'HEAD') {
    reply.send(Readable.from([]));
    return true;
  }
  const object = await store.get(key, range ?? undefined);
  if (!object) return false;
  reply.send(object.body);
  return true;
}
