import crypto from 'node:crypto';

/** Which part of an item a blob holds. */
export type BlobField = 'requestBody' | 'responseBody' | 'image';

export const blobHash = (value: string, length: number): string =>
  crypto.createHash('sha256').update(value).digest('hex').slice(0, length);

/** What every key looks like: user, device (or session owner) and item hashes. */
export const BLOB_KEY_PATTERN = /^[0-9a-f]{16}\/[0-9a-f]{16}\/[0-9a-f]{32}$/;

/**
 * Large bodies and screenshots, by key: files under `DATA_DIR/blobs` (the embedded default, see
 * FileBlobStore) or objects in an S3-compatible bucket (S3BlobStore), which several server nodes
 * share.
 *
 * Keys are derived from (user, device, item, field), so a device resending an item after a lost
 * ack, or completing a network item, overwrites the same blob instead of leaving orphans. User and
 * device parts are hashes: device ids are chosen by the SDK and must never form a path. A user's
 * blobs, and a device's, share a key prefix, which is how they are deleted together.
 */
export abstract class BlobStore {
  static key(userId: string, deviceId: string, itemId: string, field: BlobField): string {
    return `${BlobStore.devicePrefix(userId, deviceId)}${blobHash(`${itemId}\0${field}`, 32)}`;
  }

  protected static userPrefix(userId: string): string {
    return `${blobHash(userId, 16)}/`;
  }

  protected static devicePrefix(userId: string, deviceId: string): string {
    return `${BlobStore.userPrefix(userId)}${blobHash(deviceId, 16)}/`;
  }

  protected static checked(key: string): string {
    if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`Invalid blob key ${key}`);
    return key;
  }

  /** Stores `content` under `key` whole: a reader sees the old blob or the new one, never half. */
  abstract put(key: string, content: string): Promise<void>;
  /** The blob's text, or null when it is gone (deleted concurrently, or lost with the storage). */
  abstract read(key: string): Promise<string | null>;
  /**
   * Gives `to` the content `from` has now, so that a later overwrite or delete of `from` leaves
   * `to` as it was (a session's copy of a live item). False when `from` is gone.
   */
  abstract link(from: string, to: string): Promise<boolean>;
  abstract delete(keys: Iterable<string>): Promise<void>;
  abstract deleteDevice(userId: string, deviceId: string): Promise<void>;
  abstract deleteUser(userId: string): Promise<void>;
  /** Lets go of connections (nothing to do for files). */
  async close(): Promise<void> {}
}
