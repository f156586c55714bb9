// Sends one game file: the variant the browser takes (a pre-compressed sibling such as `x.wasm.br`; a file stored
// compressed, decoded for a browser that does not take its encoding), with its real type. @fastify/static (send)
// brings validators, 304 and ranges; @fastify/compress compresses the rest on the fly.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply } from 'fastify';
import { contentTypeOf, encodedName, ENCODING_SUFFIX, type Encoding } from './file-types.js';

export interface Variant {
  root: string;
  /** the stored file, relative to root */
  name: string;
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

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/**
 * The variant of `file` to send, looking in each root in turn (the current file set, then the one it replaced);
 * null when no root has it. `file` is a checked relative path (game-files.service parseGamePath).
 */
export async function chooseVariant(roots: string[], file: string, acceptEncoding: string | undefined): Promise<Variant | null> {
  const takes = accepted(acceptEncoding);
  const stored = encodedName(file);
  for (const root of roots) {
    if (stored) {
      // Asked by its compressed name (Unity's loader asks for `x.wasm.br`): its real type, and its encoding.
      if (!(await isFile(path.join(root, file)))) continue;
      const type = contentTypeOf(stored.inner);
      return takes.includes(stored.encoding) ? { root, name: file, type, encoding: stored.encoding } : { root, name: file, type, decode: stored.encoding };
    }
    for (const encoding of takes) {
      const sibling = file + ENCODING_SUFFIX[encoding];
      if (await isFile(path.join(root, sibling))) return { root, name: sibling, type: contentTypeOf(file), encoding };
    }
    if (await isFile(path.join(root, file))) return { root, name: file, type: contentTypeOf(file) };
  }
  return null;
}

const SEND_OPTIONS = { cacheControl: false, contentType: false, etag: true, lastModified: true, acceptRanges: true, dotfiles: 'deny', index: false } as const;

export function sendVariant(reply: FastifyReply, variant: Variant): FastifyReply {
  // The variant depends on Accept-Encoding, whichever was chosen: caches must keep them apart.
  reply.header('vary', 'Accept-Encoding').type(variant.type);
  if (variant.decode) {
    const decoder = variant.decode === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
    const body = pipeline(createReadStream(path.join(variant.root, variant.name)), decoder, (error) => {
      if (error) reply.log.warn({ err: error, file: variant.name }, 'a stored compressed game file could not be decoded');
    });
    // Compressed again on the fly if the browser takes another encoding.
    return reply.send(body);
  }
  if (variant.encoding) reply.header('content-encoding', variant.encoding);
  return reply.sendFile(variant.name, variant.root, SEND_OPTIONS);
}
