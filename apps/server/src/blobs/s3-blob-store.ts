import {
  CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException,
} from '@aws-sdk/client-s3';
import { BlobStore } from './blob-store';

export interface S3BlobConfig {
  /** e.g. `http://127.0.0.1:9000` for MinIO or another S3-compatible server; null: AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** Null: the AWS SDK's default credential chain (instance roles, AWS_* variables, profiles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Bucket in the path rather than the host name: what most S3-compatible servers expect. */
  forcePathStyle: boolean;
}

/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * Blobs as objects of one S3-compatible bucket, named by their key: the store several server nodes
 * share, so that a screenshot received by one node is shown by any other. An object is replaced
 * whole by each put (S3 has no partial writes); a session's copy is a server-side copy.
 */
export class S3BlobStore extends BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3BlobConfig) {
    super();
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.credentials ? { credentials: config.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible servers refuse the newer
      // checksum headers and trailers that the SDK would otherwise add to every upload.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, content: string): Promise<void> {
    await this.client.send(new PutObjectCommand({
      Bucket: this.bucket, Key: BlobStore.checked(key), Body: content, ContentType: 'text/plain; charset=utf-8',
    }));
  }

  async read(key: string): Promise<string | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: BlobStore.checked(key) }));
      return (await object.Body?.transformToString('utf-8')) ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async link(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(new CopyObjectCommand({
        Bucket: this.bucket, Key: BlobStore.checked(to), CopySource: `${this.bucket}/${BlobStore.checked(from)}`,
      }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async delete(keys: Iterable<string>): Promise<void> {
    const all = [...keys].map((key) => BlobStore.checked(key));
    for (let i = 0; i < all.length; i += DELETE_BATCH) await this.deleteObjects(all.slice(i, i + DELETE_BATCH));
  }

  async deleteDevice(userId: string, deviceId: string): Promise<void> {
    await this.deletePrefix(BlobStore.devicePrefix(userId, deviceId));
  }

  async deleteUser(userId: string): Promise<void> {
    await this.deletePrefix(BlobStore.userPrefix(userId));
  }

  override async close(): Promise<void> {
    this.client.destroy();
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    const result = await this.client.send(new DeleteObjectsCommand({
      Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }));
    const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
    if (failed.length > 0) throw new Error(`S3 refused to delete ${failed.length} blob(s): ${failed[0]?.Code ?? ''} ${failed[0]?.Message ?? ''}`);
  }

  /** Lists a page of keys under the prefix and deletes them, until none is left. */
  private async deletePrefix(prefix: string): Promise<void> {
    for (;;) {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: DELETE_BATCH }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      if (keys.length === 0) return;
      await this.deleteObjects(keys);
      if (!page.IsTruncated) return;
    }
  }
}

const isMissing = (err: unknown): boolean =>
  err instanceof NoSuchKey || (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404));
