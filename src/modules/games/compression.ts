// Which game files are worth a stored brotli and gzip copy, and making those copies: decided by the file's type (its
// name's type, then its first bytes, then a trial on samples of it), made in zlib's thread pool a few at a time.
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { contentTypeOf, type Encoding } from './file-types.js';

/** Below this a copy saves too little to be worth an object (one packet either way). */
export const MIN_COMPRESS_SIZE = 1024;
/** A copy is kept when it is at most this share of the original (it saves at least 5 %). */
export const MAX_COPY_RATIO = 0.95;
/**
 * Brotli's quality, by the file's size. Measured on FFmpeg's 32 MB threaded `.wasm`: quality 9 took 48 s of CPU
 * (8.43 MB), 7 took 12 s (8.58 MB), 5 took 3.2 s (8.76 MB, 4 % more); gzip at level 9, 1.7 s (10.3 MB). So a file up
 * to 1 MiB gets 9 (a second at most), a larger one 5: a build of large modules publishes in seconds, and its copies
 * stay well under gzip's. 11, brotli's best, costs 10 to 20 times 9: a game that wants it ships its own `.br` copies.
 */
const brotliQuality = (size: number): number => (size <= 1024 * 1024 ? 9 : 5);
/** At most this many compressions at once in the process: they share libuv's thread pool with file reads. */
const COMPRESSIONS_AT_ONCE = 2;

/**
 * Types whose bytes are packed already: images (but SVG, BMP, icons, TIFF and DDS textures), audio, video, WOFF
 * fonts and archives.
 */
const PACKED_TYPE =
  /^(?:audio|video)\/|^font\/woff2?$|^image\/(?!svg\+xml|bmp|x-icon|vnd\.microsoft\.icon|tiff|vnd\.ms-dds)|^application\/(?:zip|gzip|x-gzip|zstd|x-7z-compressed|x-rar-compressed|vnd\.rar|x-bzip2?|x-xz|x-brotli|pdf|ogg)$/;

/** Text-like types: brotli's text mode suits them. */
const TEXT_TYPE = /^text\/|[/+](?:json|xml|javascript)\b|^image\/svg\+xml/;

/** First bytes of packed formats, whatever the file is called: [offset, bytes]. */
const PACKED_MAGIC: ReadonlyArray<readonly [number, readonly number[]]> = [
  [0, [0x89, 0x50, 0x4e, 0x47]], // PNG
  [0, [0xff, 0xd8, 0xff]], // JPEG
  [0, [0x47, 0x49, 0x46, 0x38]], // GIF
  [8, [0x57, 0x45, 0x42, 0x50]], // RIFF....WEBP
  [4, [0x66, 0x74, 0x79, 0x70]], // ISO media: MP4, M4A, AVIF, HEIC
  [0, [0x1a, 0x45, 0xdf, 0xa3]], // Matroska, WebM
  [0, [0x4f, 0x67, 0x67, 0x53]], // Ogg
  [0, [0x49, 0x44, 0x33]], // MP3 with an ID3 tag
  [0, [0x66, 0x4c, 0x61, 0x43]], // FLAC
  [0, [0x77, 0x4f, 0x46]], // WOFF, WOFF2
  [0, [0x50, 0x4b, 0x03, 0x04]], // zip and what is built on it
  [0, [0x1f, 0x8b]], // gzip
  [0, [0x28, 0xb5, 0x2f, 0xfd]], // zstd
  [0, [0x42, 0x5a, 0x68]], // bzip2
  [0, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]], // xz
  [0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]], // 7z
  [0, [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30]], // KTX2
];

/** Whether a file of this name may have stored copies at all (its type is not one that is packed already). */
export function mayCompress(name: string): boolean {
  return !PACKED_TYPE.test(contentTypeOf(name).split(';')[0]!);
}

const startsPacked = (head: Buffer) =>
  PACKED_MAGIC.some(([at, bytes]) => head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b));

/** Up to three 32 KB samples (start, middle, end) of the file: the whole file when it is smaller. */
async function samplesOf(file: string, size: number): Promise<Buffer[]> {
  const handle = await open(file, 'r');
  try {
    const length = Math.min(size, 32 * 1024);
    const offsets = size <= 3 * length ? [0] : [0, Math.floor(size / 2), size - length];
    const samples: Buffer[] = [];
    for (const offset of offsets) {
      const buffer = Buffer.alloc(size <= 3 * length ? size : length);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      samples.push(buffer.subarray(0, bytesRead));
    }
    return samples;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the file at `file` (named `name` in the game) is worth compressing: big enough, of a type that is not packed
 * already, not starting like a packed format, and with samples that a quick gzip shrinks by a tenth.
 */
export async function worthCompressing(name: string, file: string, size: number): Promise<boolean> {
  if (size < MIN_COMPRESS_SIZE || !mayCompress(name)) return false;
  const samples = await samplesOf(file, size);
  if (startsPacked(samples[0]!)) return false;
  const raw = samples.reduce((n, s) => n + s.length, 0);
  const packed = samples.reduce((n, s) => n + zlib.deflateRawSync(s, { level: 1 }).length, 0);
  return packed <= raw * 0.9;
}

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `job` when fewer than COMPRESSIONS_AT_ONCE compressions are running in the process. */
async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (running >= COMPRESSIONS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await job();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function compressor(encoding: Encoding, name: string, size: number): zlib.BrotliCompress | zlib.Gzip {
  if (encoding === 'gzip') return zlib.createGzip({ level: 9 });
  const { constants: c } = zlib;
  return zlib.createBrotliCompress({
    params: {
      [c.BROTLI_PARAM_QUALITY]: brotliQuality(size),
      // A window as large as the file (up to brotli's 16 MB): a small file does not pay for a large window's tables.
      [c.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(16, Math.ceil(Math.log2(size + 1)))),
      [c.BROTLI_PARAM_SIZE_HINT]: size,
      [c.BROTLI_PARAM_MODE]: TEXT_TYPE.test(contentTypeOf(name)) ? c.BROTLI_MODE_TEXT : c.BROTLI_MODE_GENERIC,
    },
  });
}

/** Compresses `source` (the bytes of the game file `name`) into `target`; returns the copy's size. */
export function compressFile(
  source: string,
  target: string,
  encoding: Encoding,
  name: string,
  size: number,
): Promise<number> {
  return limited(async () => {
    await pipeline(createReadStream(source), compressor(encoding, name, size), createWriteStream(target));
    return (await stat(target)).size;
  });
}

export class DecodeError extends Error {}

/**
 * Decodes `source`, stored with `encoding`, into `target`; returns the decoded size. A file that is not valid data of
 * its encoding, or that decodes to more than `maxBytes` (a decompression bomb), is a DecodeError.
 */
export function decodeFile(source: string, target: string, encoding: Encoding, maxBytes: number): Promise<number> {
  return limited(async () => {
    const decoder = encoding === 'br' ? zlib.createBrotliDecompress() : zlib.createGunzip();
    let bytes = 0;
    const capped = async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw new DecodeError(`decodes to more than ${maxBytes} bytes`);
        yield chunk;
      }
    };
    try {
      await pipeline(createReadStream(source), decoder, capped, createWriteStream(target));
    } catch (error) {
      if (error instanceof DecodeError) throw error;
      const code = (error as { code?: string }).code ?? '';
      // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR for a cut stream) and brotli's decoder errors (ERR__ERROR_FORMAT_…)
      if (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code.startsWith('ERR_BROTLI'))
        throw new DecodeError(`is not valid ${encoding === 'br' ? 'brotli' : 'gzip'} data`);
      throw error;
    }
    return bytes;
  });
}
