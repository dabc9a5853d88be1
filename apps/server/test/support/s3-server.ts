import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { S3BlobConfig } from '../../src/blobs/s3-blob-store';

/** The part of s3rver (which ships no types) that a test uses. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** s3rver accepts these credentials and signs with them like S3 does. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  /** What a node needs to keep its blobs in the bucket (the `s3` part of the config). */
  config: S3BlobConfig;
  /** The same as environment variables, for server processes. */
  env: Record<string, string>;
  /** The objects stored, by key (files of s3rver's directory, without its metadata). */
  keys(): string[];
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on a free loopback port, with one empty bucket, storing
 * under a temporary directory that close() removes. Requests are signed and checked as S3 does.
 */
export async function startS3Server(bucket = 'spyglass-blobs'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'spyglass-s3-'));
  const server = new S3rver({
    address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucketDir = path.join(directory, bucket);
  return {
    config: {
      endpoint, bucket, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
    },
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: ACCESS_KEY, S3_SECRET_ACCESS_KEY: ACCESS_KEY },
    keys: () => (fs.existsSync(bucketDir) ? fs.readdirSync(bucketDir, { recursive: true, withFileTypes: true }) : [])
      // s3rver keeps each object as `<key>._S3rver_object` beside its metadata files.
      .filter((e) => e.isFile() && e.name.endsWith('._S3rver_object'))
      .map((e) => path.relative(bucketDir, path.join(e.parentPath, e.name)).replace(/\._S3rver_object$/, ''))
      .sort(),
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
