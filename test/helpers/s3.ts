// A real S3-compatible server (s3rver) on a free loopback port, with its objects in a scratch directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

export interface S3Server {
  endpoint: string;
  /** s3rver's built-in key pair */
  accessKeyId: string;
  secretAccessKey: string;
  /** settings naming `bucket` on this server (s3:// URL with a unique prefix) */
  settings(bucket?: string, prefix?: string): Record<string, unknown>;
  close(): Promise<void>;
}

export const TEST_BUCKET = 'gameplatform-test';

export async function startS3(buckets: string[] = [TEST_BUCKET]): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'gp-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: process.env.S3RVER_LOG !== '1',
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    settings(bucket = TEST_BUCKET, prefix = `t${Math.random().toString(36).slice(2, 10)}`) {
      return {
        storage_url: `s3://${bucket}/${prefix}`,
        s3_endpoint: endpoint,
        s3_access_key_id: 'S3RVER',
        s3_secret_access_key: 'S3RVER',
        s3_force_path_style: true,
      };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
