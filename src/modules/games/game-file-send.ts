// Sends one game file from the store: the variant the browser takes (a pre-compressed sibling such as `x.wasm.br`; a
// file stored compressed, decoded for a browser that does not take its encoding), with its real type. send-object
// brings validators, 304 and ranges; @fastify/compress compresses the rest on the fly.
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendObject } from '../../services/storage/send-object.js';
import type { ObjectStat, ObjectStore } from '../../services/storage/store.js';
import { contentTypeOf, encodedName, ENCODING_SUFFIX, type Encoding } from './file-types.js';

export interface Variant {
  /** the stored object's key */
  key: string;
  stat: ObjectStat;
  /** the Content-Type of what it holds */
  type: string;
  /** sent as stored, with this Content-Encoding */
  encoding?: Encoding;
  /** stored with this encoding, which the browser does not take: decoded on the way */
  decode?: Encoding;
}

const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/** The encodings the request accepts, best first (ours: br, then gzip). */
function accepted(header: string | undefined): Encoding[] {
  return header ? ENCODINGS.filter((encoding) => negotiate(header, [encoding]) === encoding) : [];
}

/**
 * The variant of `file` to send, looking under each key prefix in turn (the current file set, then the one it
 * replaced); null when none has it. `file` is a checked relative path (game-files.service parseGamePath).
 */
export async function chooseVariant(
  store: ObjectStore,
  roots: string[],
  file: string,
  acceptEncoding: string | undefined,
): Promise<Variant | null> {
  const takes = accepted(acceptEncoding);
  const stored = encodedName(file);
  for (const root of roots) {
    if (stored) {
      // Asked by its compressed name (Unity's loader asks for `x.wasm.br`): its real type, and its encoding.
      const key = `${root}/${file}`;
      const stat = await store.head(key);
      if (!stat) continue;
      const type = contentTypeOf(stored.inner);
      return takes.includes(stored.encoding)
        ? { key, stat, type, encoding: stored.encoding }
        : { key, stat, type, decode: stored.encoding };
    }
    for (const encoding of takes) {
      const key = `${root}/${file}${ENCODING_SUFFIX[encoding]}`;
      const stat = await store.head(key);
      if (stat) return { key, stat, type: contentTypeOf(file), encoding };
    }
    const key = `${root}/${file}`;
    const stat = await store.head(key);
    if (stat) return { key, stat, type: contentTypeOf(file) };
  }
  return null;
}

/** Sends the variant; null when it vanished since chooseVariant (the caller answers 404). */
export async function sendVariant(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  variant: Variant,
): Promise<FastifyReply | null> {
  // The variant depends on Accept-Encoding, whichever was chosen: caches must keep them apart.
  reply.header('vary', 'Accept-Encoding').type(variant.type);
  if (variant.decode) {
    const object = await store.get(variant.key);
    if (!object) return null;
    const decoder = variant.decode === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
    const body = pipeline(object.body, decoder, (error) => {
      if (error)
        reply.log.warn({ err: error, file: variant.key }, 'a stored compressed game file could not be decoded');
    });
    // Compressed again on the fly if the browser takes another encoding.
    return reply.send(body);
  }
  if (variant.encoding) reply.header('content-encoding', variant.encoding);
  return sendObject(request, reply, store, variant.key, variant.stat);
}
