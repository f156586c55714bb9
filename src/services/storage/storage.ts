// The store the settings name: storage_url unset → files under data_dir; s3://… → the bucket.
import type { Config } from '../../config.js';
import { LocalStore } from './local-store.js';
import type { ObjectStore } from './store.js';

/** The AWS SDK is loaded only for a bucket: a process storing under data_dir never loads it. */
export async function openStore(config: Config): Promise<ObjectStore> {
  if (!config.storage_url) return new LocalStore(config.data_dir);
  const { S3Store } = await import('./s3-store.js');
  return new S3Store({
    url: config.storage_url,
    endpoint: config.s3_endpoint || undefined,
    region: config.s3_region,
    accessKeyId: config.s3_access_key_id || undefined,
    secretAccessKey: config.s3_secret_access_key || undefined,
    forcePathStyle: config.s3_force_path_style,
  });
}
