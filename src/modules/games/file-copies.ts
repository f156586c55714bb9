// The compressed copies of a file set, stored beside its files: `<file>.br` and `<file>.gz` for each file that
// compresses, made once (at publish, or by `games compress` for sets published before), so that serving a file never
// compresses it. A copy uploaded with the game (Unity's and Godot's compressed exports) is kept as it is; a file
// uploaded only compressed (`Build/x.wasm.br`) also gets its decoded bytes stored under `Build/x.wasm`.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eachAtOnce } from '../../lib/at-once.js';
import type { ObjectStore } from '../../services/storage/store.js';
import {
  compressFile,
  DecodeError,
  decodeFile,
  MAX_COPY_RATIO,
  MIN_COMPRESS_SIZE,
  mayCompress,
  worthCompressing,
} from './compression.js';
import { contentTypeOf, ENCODING_SUFFIX, encodedName, type Encoding } from './file-types.js';
import { MAX_NAME_BYTES } from './files.js';

/** A finished set holds this object once its copies are stored (a dot name: no URL names it). */
export const COPIES_MARKER = '.compressed';
const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];
/** File families copied at once; the compressions themselves are limited process-wide (compression.ts). */
const FAMILIES_AT_ONCE = 4;

export interface SetFiles {
  /** the set's files, as stored (relative `/` paths) */
  names: readonly string[];
  /** a file's size when it is known without reading the file */
  sizeOf?(name: string): number | undefined;
  /** a local file holding the bytes of the set's file `name` */
  local(name: string): Promise<string>;
  /** called once a local file from `local` is no longer needed */
  release?(file: string): Promise<void>;
}

export interface CopiesResult {
  /** compressed copies stored */
  copies: number;
  /** files uploaded only compressed whose decoded bytes were stored */
  decoded: number;
  /** compressed files that could not be decoded, with why: nothing was stored for them */
  unreadable: string[];
}

/** A served name and the stored names that hold its bytes: as they are, and per encoding. */
interface Family {
  inner: string;
  identity?: string;
  br?: string;
  gzip?: string;
}

function familiesOf(names: readonly string[]): Family[] {
  const families = new Map<string, Family>();
  for (const name of names) {
    const encoded = encodedName(name);
    const inner = encoded?.inner ?? name;
    const family = families.get(inner) ?? { inner };
    family[encoded?.encoding ?? 'identity'] = name;
    families.set(inner, family);
  }
  return [...families.values()];
}

const fitsName = (name: string) => Buffer.byteLength(path.posix.basename(name)) <= MAX_NAME_BYTES;

interface CopyJob {
  store: ObjectStore;
  prefix: string;
  files: SetFiles;
  scratch: string;
  maxDecodedBytes: number;
  result: CopiesResult;
}

/** The copies one family lacks (nothing is read for a family that needs none). */
async function copyFamily(job: CopyJob, family: Family, n: number): Promise<void> {
  const missing = ENCODINGS.filter((e) => !family[e] && fitsName(family.inner + ENCODING_SUFFIX[e]));
  if (family.identity && (!missing.length || !mayCompress(family.inner))) return;
  const known = family.identity ? job.files.sizeOf?.(family.identity) : undefined;
  if (known !== undefined && known < MIN_COMPRESS_SIZE) return;
  const temporary: string[] = [];
  const local: string[] = [];
  try {
    let identity: string;
    if (family.identity) {
      identity = await job.files.local(family.identity);
      local.push(identity);
    } else {
      const encoding: Encoding = family.br ? 'br' : 'gzip';
      const packed = await job.files.local(family[encoding]!);
      local.push(packed);
      identity = path.join(job.scratch, `${n}`);
      temporary.push(identity);
      try {
        await decodeFile(packed, identity, encoding, job.maxDecodedBytes);
      } catch (error) {
        if (!(error instanceof DecodeError)) throw error;
        job.result.unreadable.push(`${family[encoding]} ${error.message}`);
        return;
      }
      await job.store.put(
        `${job.prefix}/${family.inner}`,
        { file: identity },
        { contentType: contentTypeOf(family.inner) },
      );
      job.result.decoded++;
    }
    const size = (await stat(identity)).size;
    if (!missing.length || !(await worthCompressing(family.inner, identity, size))) return;
    for (const encoding of missing) {
      const copy = path.join(job.scratch, `${n}${ENCODING_SUFFIX[encoding]}`);
      temporary.push(copy);
      if ((await compressFile(identity, copy, encoding, family.inner, size)) > size * MAX_COPY_RATIO) continue;
      const key = `${job.prefix}/${family.inner}${ENCODING_SUFFIX[encoding]}`;
      await job.store.put(key, { file: copy }, { contentType: contentTypeOf(family.inner) });
      job.result.copies++;
    }
  } finally {
    for (const file of temporary) await rm(file, { force: true });
    for (const file of local) await job.files.release?.(file);
  }
}

/**
 * Stores the copies the set under `prefix` lacks: for every file that compresses (compression.ts decides) a brotli
 * and a gzip copy, each only if it saves at least 5 %; for a file uploaded only compressed, its decoded bytes.
 */
export async function storeCopies(
  store: ObjectStore,
  prefix: string,
  files: SetFiles,
  options: { maxDecodedBytes: number },
): Promise<CopiesResult> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'gp-copies-'));
  const result: CopiesResult = { copies: 0, decoded: 0, unreadable: [] };
  const job: CopyJob = { store, prefix, files, scratch, maxDecodedBytes: options.maxDecodedBytes, result };
  try {
    const families = familiesOf(files.names).map((family, n) => ({ family, n }));
    await eachAtOnce(families, FAMILIES_AT_ONCE, ({ family, n }) => copyFamily(job, family, n));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return result;
}
