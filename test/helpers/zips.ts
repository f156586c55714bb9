// Build zips for the tests: well-formed ones made with yazl, and hostile ones made from those by patching bytes (a
// name swapped for one of the same length, a central-directory field rewritten), as an attacker's tool would write them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';

export interface ZipEntry {
  data: string | Buffer;
  /** Unix mode (file type and permissions), e.g. 0o120777 for a symbolic link */
  mode?: number;
  /** store without compression */
  store?: boolean;
}

/** A zip of these entries (name → content), deflated unless told. */
export async function zipOf(entries: Record<string, string | Buffer | ZipEntry>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, value] of Object.entries(entries)) {
    const entry: ZipEntry = typeof value === 'string' || Buffer.isBuffer(value) ? { data: value } : value;
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data);
    zip.addBuffer(data, name, {
      ...(entry.mode === undefined ? {} : { mode: entry.mode }),
      compress: !entry.store,
      mtime: new Date(2026, 0, 1),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every file under a folder, as zip entries by their relative `/` path. */
export function entriesOf(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) Object.assign(out, entriesOf(file, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = readFileSync(file);
  }
  return out;
}

/** Replaces every occurrence of the name `from` (local header and central directory) by `to`, of the same byte length. */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  const a = Buffer.from(from);
  const b = Buffer.from(to);
  if (a.length !== b.length) throw new Error('renameEntry needs names of the same byte length');
  const out = Buffer.from(zip);
  let at = out.indexOf(a);
  if (at === -1) throw new Error(`no entry named ${from}`);
  while (at !== -1) {
    b.copy(out, at);
    at = out.indexOf(a, at + b.length);
  }
  return out;
}

/** The central-directory records of a zip: where each starts, and its name. */
function centralRecords(zip: Buffer): Array<{ at: number; name: string }> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const records: Array<{ at: number; name: string }> = [];
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    records.push({ at, name: zip.subarray(at + 46, at + 46 + nameLength).toString('utf8') });
    at += 46 + nameLength + extra + comment;
  }
  return records;
}

const FIELDS = { uncompressedSize: 24, compressedSize: 20, localHeaderOffset: 42 } as const;

/** Sets bits of the named entry's general purpose flags (bit 0: encrypted), in its central record and local header. */
export function setFlags(zip: Buffer, name: string, bits: number): Buffer {
  const out = Buffer.from(zip);
  const record = centralRecords(out).find((r) => r.name === name);
  if (!record) throw new Error(`no entry named ${name}`);
  out.writeUInt16LE(out.readUInt16LE(record.at + 8) | bits, record.at + 8);
  const local = out.readUInt32LE(record.at + 42);
  out.writeUInt16LE(out.readUInt16LE(local + 6) | bits, local + 6);
  return out;
}

/** Rewrites a 32-bit field of the named entry's central-directory record. */
export function patchCentral(zip: Buffer, name: string, field: keyof typeof FIELDS, value: number): Buffer {
  const out = Buffer.from(zip);
  const record = centralRecords(out).find((r) => r.name === name);
  if (!record) throw new Error(`no entry named ${name}`);
  out.writeUInt32LE(value, record.at + FIELDS[field]);
  return out;
}

/** A 32-bit field of the named entry's central-directory record. */
export function readCentral(zip: Buffer, name: string, field: keyof typeof FIELDS): number {
  const record = centralRecords(zip).find((r) => r.name === name);
  if (!record) throw new Error(`no entry named ${name}`);
  return zip.readUInt32LE(record.at + FIELDS[field]);
}
