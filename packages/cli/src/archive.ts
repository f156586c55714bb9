// What is deployed: a zip as it is, or a folder zipped into a temporary file (yazl, streamed: bounded memory). Hidden
// names (.git, .env, .DS_Store) are left out, as the platform leaves them out; a link is refused here, before uploading.
import { createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';

export class UsageError extends Error {}

export interface Archive {
  /** the zip to upload */
  file: string;
  size: number;
  /** game.json's slug, when it has one */
  slug: string | undefined;
  /** removes the temporary zip (nothing for a zip given as it is) */
  dispose(): Promise<void>;
}

/** Regular files under `dir`, `/` paths sorted, hidden names left out. */
async function filesOf(dir: string, relative = ''): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(path.join(dir, relative), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const file = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isSymbolicLink())
      throw new UsageError(`${file} is a symbolic link: the platform takes regular files only`);
    if (entry.isDirectory()) found.push(...(await filesOf(dir, file)));
    else if (entry.isFile()) found.push(file);
    else throw new UsageError(`${file} is not a regular file`);
  }
  return found;
}

async function slugOfFolder(dir: string): Promise<string | undefined> {
  const text = await readFile(path.join(dir, 'game.json'), 'utf8').catch(() => null);
  if (text === null) throw new UsageError(`${dir} has no game.json: the platform needs one beside index.html`);
  try {
    const slug = (JSON.parse(text) as { slug?: unknown }).slug;
    return typeof slug === 'string' ? slug : undefined;
  } catch (error) {
    throw new UsageError(`${path.join(dir, 'game.json')} is not valid JSON: ${(error as Error).message}`);
  }
}

async function zipFolder(dir: string): Promise<Archive> {
  const slug = await slugOfFolder(dir);
  const files = await filesOf(dir);
  const scratch = await mkdtemp(path.join(tmpdir(), 'gameplatform-cli-'));
  const file = path.join(scratch, 'build.zip');
  const zip = new yazl.ZipFile();
  for (const name of files) zip.addFile(path.join(dir, name), name);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
  return { file, size: (await lstat(file)).size, slug, dispose: () => rm(scratch, { recursive: true, force: true }) };
}

/** game.json's slug inside a zip (at its top, or in its one folder), without unpacking anything else. */
async function slugOfZip(file: string): Promise<string | undefined> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true }).catch((error: Error) => {
    throw new UsageError(`${file} is not a zip file (${error.message})`);
  });
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve(undefined));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!/^([^/]+\/)?game\.json$/.test(entry.fileName) || entry.uncompressedSize > 1024 * 1024)
          return zip.readEntry();
        zip
          .openReadStreamPromise(entry)
          .then(async (stream) => {
            const chunks: Buffer[] = [];
            for await (const chunk of stream) chunks.push(chunk as Buffer);
            const slug = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { slug?: unknown }).slug;
            resolve(typeof slug === 'string' ? slug : undefined);
          })
          .catch(() => resolve(undefined));
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The zip to deploy from a folder (zipped) or a .zip file (as it is). */
export async function archiveOf(target: string): Promise<Archive> {
  const info = await lstat(target).catch(() => null);
  if (!info) throw new UsageError(`${target} does not exist`);
  if (info.isDirectory()) return zipFolder(path.resolve(target));
  if (!info.isFile()) throw new UsageError(`${target} is neither a folder nor a zip file`);
  return { file: target, size: info.size, slug: await slugOfZip(target), dispose: async () => undefined };
}
