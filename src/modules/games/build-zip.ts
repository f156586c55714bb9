// Unpacks a build's zip into a folder with yauzl: the central directory is checked whole first (names, types, layout,
// counts, declared sizes), then every file is inflated with the caps counted on the bytes that actually come out.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError } from '../../http/errors.js';
import { buildRefusal, checkLayout, classifyEntry, commonRoot, type Placed } from './zip-entries.js';

export interface BuildLimits {
  maxFiles: number;
  maxBytes: number;
  /** unpacked bytes per packed byte an entry may reach once past RATIO_FLOOR */
  maxRatio: number;
}

/** Below this an entry is never a bomb, whatever its ratio (a small file of zeros packs 1000:1). */
export const RATIO_FLOOR = 1024 * 1024;
/** game.json is read into memory: it is never this large. */
const MANIFEST_MAX_BYTES = 1024 * 1024;

export interface Unpacked {
  /** relative `/` paths of the unpacked files, game.json left out */
  files: string[];
  bytes: number;
  /** game.json's text, or null when the zip has none at its top */
  manifest: string | null;
}

interface Planned {
  entry: Entry;
  /** the name inside the build (the zip's single top folder taken off) */
  name: string;
}

const rawName = (entry: Entry) => entry.fileName as unknown as Buffer;

function decodedName(entry: Entry): string {
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, rawName(entry), entry.extraFields, false);
}

async function openZip(file: string): Promise<ZipFile> {
  try {
    return await yauzl.openPromise(file, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch (error) {
    throw buildRefusal('not_a_zip', `The upload is not a zip file (${(error as Error).message})`);
  }
}

/** Every entry of the central directory, stopping with a refusal once there are more files than allowed. */
async function readDirectory(zip: ZipFile, limits: BuildLimits): Promise<Array<{ entry: Entry; name: string }>> {
  const found: Array<{ entry: Entry; name: string }> = [];
  const placed: Placed[] = [];
  const names = new Set<string>();
  let declared = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', (error: Error) =>
      reject(error instanceof AppError ? error : buildRefusal('corrupt', `The zip cannot be read: ${error.message}`)),
    );
    zip.on('end', resolve);
    zip.on('entry', (entry: Entry) => {
      try {
        const name = decodedName(entry);
        placed.push({
          name,
          offset: entry.relativeOffsetOfLocalHeader,
          span: 30 + entry.fileNameLength + entry.compressedSize,
        });
        const kind = classifyEntry({ ...entry, name });
        if (kind === 'file') {
          if (names.has(name)) throw buildRefusal('duplicate', `${name}: the zip holds this name twice`, name);
          names.add(name);
          found.push({ entry, name });
          declared += entry.uncompressedSize;
          if (found.length > limits.maxFiles)
            throw buildRefusal(
              'too_many_files',
              `The build holds more than ${limits.maxFiles} files (setting builds.max_files)`,
            );
          if (declared > limits.maxBytes)
            throw buildRefusal('too_large', `The build unpacks to more than ${limits.maxBytes} bytes`, name);
        }
        zip.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zip.readEntry();
  });
  checkLayout(placed);
  return found;
}

/** Counts what an entry inflates to: the build's total and the entry's ratio, as the bytes come out. */
function meter(planned: Planned, limits: BuildLimits, total: { bytes: number }): Transform {
  let out = 0;
  const { name, entry } = planned;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      out += chunk.length;
      total.bytes += chunk.length;
      if (total.bytes > limits.maxBytes)
        return done(buildRefusal('too_large', `The build unpacks to more than ${limits.maxBytes} bytes`, name));
      if (out > RATIO_FLOOR && out > Math.max(1, entry.compressedSize) * limits.maxRatio)
        return done(
          buildRefusal(
            'zip_bomb',
            `${name}: inflates more than ${limits.maxRatio} times its packed size (a zip bomb)`,
            name,
          ),
        );
      done(null, chunk);
    },
  });
}

/** yauzl's own complaints while inflating: more bytes than declared is a bomb, anything else a damaged zip. */
function inflateFailure(error: unknown, name: string): unknown {
  if (error instanceof AppError) return error;
  const message = (error as Error).message ?? String(error);
  if (/too many bytes in the stream/.test(message))
    return buildRefusal('zip_bomb', `${name}: inflates to more bytes than the zip declares for it (a zip bomb)`, name);
  return buildRefusal('corrupt', `${name}: cannot be unpacked (${message})`, name);
}

async function inflate(zip: ZipFile, planned: Planned, into: string, limits: BuildLimits, total: { bytes: number }) {
  const target = path.join(into, planned.name);
  if (!target.startsWith(into + path.sep)) throw new Error(`unpacking outside the folder: ${planned.name}`);
  await mkdir(path.dirname(target), { recursive: true });
  try {
    const stream = await zip.openReadStreamPromise(planned.entry);
    await pipeline(stream, meter(planned, limits, total), createWriteStream(target, { flags: 'wx' }));
  } catch (error) {
    throw inflateFailure(error, planned.name);
  }
}

async function readManifestEntry(zip: ZipFile, entry: Entry): Promise<string> {
  if (entry.uncompressedSize > MANIFEST_MAX_BYTES)
    throw buildRefusal('too_large', `game.json is larger than ${MANIFEST_MAX_BYTES} bytes`, 'game.json');
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  } catch (error) {
    throw inflateFailure(error, 'game.json');
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Unpacks `zipFile` into the empty folder `into`; throws 422 invalid_build naming the entry at the first problem (the
 * caller removes the folder). A zip whose entries all sit in one folder holding game.json is read from that folder.
 */
export async function unpackBuild(zipFile: string, into: string, limits: BuildLimits): Promise<Unpacked> {
  const zip = await openZip(zipFile);
  try {
    const found = await readDirectory(zip, limits);
    const root = commonRoot(found.map((f) => f.name));
    const planned = found.map((f) => ({ entry: f.entry, name: f.name.slice(root.length) }));
    const total = { bytes: 0 };
    let manifest: string | null = null;
    const files: string[] = [];
    for (const item of planned) {
      if (item.name === 'game.json') manifest = await readManifestEntry(zip, item.entry);
      else {
        await inflate(zip, item, into, limits, total);
        files.push(item.name);
      }
    }
    return { files: files.sort(), bytes: total.bytes, manifest };
  } finally {
    zip.close();
  }
}
