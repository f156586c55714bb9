// The store as an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Ceph…): every instance reads and writes the same objects.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  StorageError,
  StreamSizeError,
  type ListedObject,
  type ObjectRange,
  type ObjectStat,
  type ObjectStore,
  type PutBody,
  type StoredObject,
} from './store.js';

export interface S3Settings {
  /** s3://<bucket>/<prefix> */
  url: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** The bucket and the key prefix (`''` or ending in `/`) of an s3:// URL. */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) throw new StorageError(`storage_url ${url} is not s3://<bucket>/<prefix>`);
  const prefix = match[2]!.replace(/^\/+|\/+$/g, '');
  return { bucket: match[1]!, prefix: prefix ? `${prefix}/` : '' };
}

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);
const isMissing = (error: unknown) =>
  statusOf(error) === 404 ||
  (error as { name?: string }).name === 'NoSuchKey' ||
  (error as { name?: string }).name === 'NotFound';

/**
 * The stream, failing if it brings more than `size` bytes; fewer make the request end short, which the store refuses
 * (the PUT fails, nothing is stored).
 */
function counted(stream: Readable, size: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new StreamSizeError(size, seen) : null, chunk);
    },
    flush(done) {
      done(seen < size ? new StreamSizeError(size, seen) : null);
    },
  });
  stream.on('error', (error) => counter.destroy(error));
  return stream.pipe(counter);
}

export class S3Store implements ObjectStore {
  readonly kind = 's3';
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: S3Settings) {
    const { bucket, prefix } = parseStorageUrl(settings.url);
    this.bucket = bucket;
    this.prefix = prefix;
    this.location = `s3://${bucket}/${prefix}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey ?? '' } }
        : {}),
      // Requests that fail are answered by the service; a few quick retries only.
      maxAttempts: 3,
      // Checksums only where S3 requires them: the default (aws-chunked uploads with trailing checksums) is not
      // understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(key: string): string {
    return this.prefix + key;
  }

  async check(): Promise<void> {
    const where = `storage_url (GP_STORAGE_URL) ${this.location}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      // Reading under the prefix, as the service will (HeadBucket alone passes on some stores with bad credentials):
      // a missing object is the expected answer.
      await this.client
        .send(new HeadObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}.gameplatform-check` }))
        .catch((error: unknown) => {
          if (statusOf(error) !== 404) throw error;
        });
    } catch (error) {
      const status = statusOf(error);
      const name = (error as { name?: string }).name ?? '';
      if (status === 404 || name === 'NoSuchBucket')
        throw new StorageError(`${where}: the bucket ${this.bucket} does not exist; create it first`);
      if (
        status === 403 ||
        status === 401 ||
        /AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|Credentials/i.test(name)
      ) {
        throw new StorageError(
          `${where}: the object store refused the credentials (${name && name !== 'Unknown' ? name : `HTTP ${status}`}); check s3_access_key_id and s3_secret_access_key`,
        );
      }
      throw new StorageError(`${where}: the object store cannot be reached: ${(error as Error).message}`);
    }
  }

  async put(key: string, body: PutBody, options: { contentType?: string } = {}): Promise<void> {
    const input = Buffer.isBuffer(body)
      ? { Body: body, ContentLength: body.length }
      : 'file' in body
        ? { Body: createReadStream(body.file), ContentLength: (await stat(body.file)).size }
        : { Body: counted(body.stream, body.size), ContentLength: body.size };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        ...input,
        ContentType: options.contentType ?? 'application/octet-stream',
      }),
    );
  }

  async head(key: string): Promise<ObjectStat | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { size: out.ContentLength ?? 0, etag: out.ETag ?? '""', lastModified: out.LastModified ?? new Date(0) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async get(key: string, range?: ObjectRange): Promise<StoredObject | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : (out.ContentLength ?? 0);
      return {
        size: total,
        etag: out.ETag ?? '""',
        lastModified: out.LastModified ?? new Date(0),
        body: out.Body as Readable,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      batch = [];
    };
    for await (const object of this.list(prefix)) {
      batch.push(this.keyOf(object.key));
      if (batch.length === 1000) await flush();
    }
    await flush();
  }

  async *list(prefix: string): AsyncIterable<ListedObject> {
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.keyOf(prefix), ContinuationToken: token }),
      );
      for (const object of out.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.prefix.length), size: object.Size ?? 0, etag: object.ETag ?? '""' };
      }
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
  }

  async folders(prefix: string): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    const full = this.keyOf(prefix);
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: full, Delimiter: '/', ContinuationToken: token }),
      );
      for (const common of out.CommonPrefixes ?? [])
        if (common.Prefix) names.push(common.Prefix.slice(full.length).replace(/\/$/, ''));
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return names.sort();
  }

  close(): void {
    this.client.destroy();
  }
}
