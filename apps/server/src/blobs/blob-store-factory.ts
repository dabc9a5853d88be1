import type { BlobStore } from './blob-store';
import { FileBlobStore } from './file-blob-store';
import { S3BlobStore, type S3BlobConfig } from './s3-blob-store';

/** Files under the data directory, unless an S3-compatible bucket is configured. */
export function createBlobStore(config: { dataDir: string; s3: S3BlobConfig | null }): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new FileBlobStore(config.dataDir);
}
