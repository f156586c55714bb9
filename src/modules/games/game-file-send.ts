// Sends one game file from the store as the variant the browser takes: the brotli or gzip copy stored beside it
// (file-copies.ts), else the file as it is, with its real type, Content-Length and an ETag of that variant. Nothing is
// compressed here: a file whose set has no copies is sent as it is. send-object brings validators, 304 and ranges.
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendObject } from '../../services/storage/send-object.js';
import type { ObjectStat, ObjectStore } from '../../services/storage/store.js';
import { mayCompress } from './compression.js';
import { contentTypeOf, encodedName, ENCODING_SUFFIX, type Encoding } from './file-types.js';

export interface Variant {
  /** the stored object's key */
  key: string;
  stat: ObjectStat;
  /** the Content-Type of what it holds */
  type: string;
  /** sent as stored, with this Content-Encoding */
  encoding?: Encoding;
  /** stored with this encoding, which the browser does not take, and no other variant stored: decoded on the way */
  decode?: Encoding;
  /** whether another Accept-Encoding could have chosen another variant (the answer says Vary: Accept-Encoding) */
  varies: boolean;
}

const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/** The encodings the request accepts, best first (ours: br, then gzip). */
function accepted(header: string | undefined): Encoding[] {
  return header ? ENCODINGS.filter((encoding) => negotiate(header, [encoding]) === encoding) : [];
}

/** The stored names to try for `file`, in order, with the encoding each is sent with. */
function candidates(file: string, takes: Encoding[]): Array<{ name: string; encoding?: Encoding }> {
  const named = encodedName(file);
  const inner = named?.inner ?? file;
  const list: Array<{ name: string; encoding?: Encoding }> = [];
  // Asked by its compressed name (Unity's loader asks for `x.wasm.br`): that file first, if the browser takes it.
  if (named && takes.includes(named.encoding)) list.push({ name: file, encoding: named.encoding });
  if (named || mayCompress(inner)) {
    for (const encoding of takes) {
      if (encoding !== named?.encoding) list.push({ name: inner + ENCODING_SUFFIX[encoding], encoding });
    }
  }
  list.push({ name: inner });
  return list;
}

/**
 * The variant of `file` to send, looking under each key prefix in turn (the current file set, then the one it
 * replaced); null when none has it. `file` is a checked relative path (game-files.service parseGamePath). A range
 * request is answered from the file as it is (a range of a compressed copy is of no use to a loader).
 */
export async function chooseVariant(
  store: ObjectStore,
  roots: string[],
  file: string,
  headers: { 'accept-encoding'?: string; range?: string },
): Promise<Variant | null> {
  const named = encodedName(file);
  const inner = named?.inner ?? file;
  const type = contentTypeOf(inner);
  const varies = named !== null || mayCompress(inner);
  const tries = candidates(file, headers.range ? [] : accepted(headers['accept-encoding']));
  for (const root of roots) {
    for (const { name, encoding } of tries) {
      const key = `${root}/${name}`;
      const stat = await store.head(key);
      if (stat) return { key, stat, type, varies, ...(encoding ? { encoding } : {}) };
    }
    if (named && !tries.some((t) => t.name === file)) {
      // A set without copies (published before they were made): the compressed file, decoded on the way.
      const key = `${root}/${file}`;
      const stat = await store.head(key);
      if (stat) return { key, stat, type, varies, decode: named.encoding };
    }
  }
  return null;
}

/** The ETag of a compressed variant: the stored copy's own, marked with its encoding. */
function variantStat(stat: ObjectStat, encoding: Encoding): ObjectStat {
  return { ...stat, etag: stat.etag.replace(/"$/, `-${encoding}"`) };
}

/** Sends the variant; false when it vanished since chooseVariant (the caller answers 404). */
export async function sendVariant(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ObjectStore,
  variant: Variant,
): Promise<boolean> {
  // Caches must keep the variants of one URL apart.
  if (variant.varies) reply.header('vary', 'Accept-Encoding');
  reply.type(variant.type);
  if (variant.decode) {
    const object = await store.get(variant.key);
    if (!object) return false;
    const decoder = variant.decode === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
    // Errors reach the decoder, which Fastify sends: it logs them (a client leaving at debug).
    reply.send(pipeline(object.body, decoder, () => {}));
    return true;
  }
  if (!variant.encoding) return sendObject(request, reply, store, variant.key, variant.stat);
  reply.header('content-encoding', variant.encoding);
  return sendObject(request, reply, store, variant.key, variantStat(variant.stat, variant.encoding));
}
