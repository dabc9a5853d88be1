import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Which part of an item a blob holds. */
export type BlobField = 'requestBody' | 'responseBody' | 'image';

const hash = (value: string, length: number): string =>
  crypto.createHash('sha256').update(value).digest('hex').slice(0, length);

/**
 * Large bodies and screenshots, as files under `DATA_DIR/blobs/<user>/<device>/<key>`.
 *
 * Keys are derived from (user, device, item, field), so a device resending an item after a lost
 * ack, or completing a network item, overwrites the same file instead of leaving orphans. User and
 * device directories are hashes: device ids are chosen by the SDK and must never form a path.
 * With several server nodes `DATA_DIR` has to be shared storage.
 */
export class BlobStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
  }

  static key(userId: string, deviceId: string, itemId: string, field: BlobField): string {
    return `${hash(userId, 16)}/${hash(deviceId, 16)}/${hash(`${itemId}\0${field}`, 32)}`;
  }

  private file(key: string): string {
    if (!/^[0-9a-f]{16}\/[0-9a-f]{16}\/[0-9a-f]{32}$/.test(key)) throw new Error(`Invalid blob key ${key}`);
    return path.join(this.root, key);
  }

  /** Writes through a temporary file and a rename, so a crash never leaves half a blob behind a key. */
  async put(key: string, content: string): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, content, 'utf8');
    await fs.rename(tmp, file);
  }

  /** The blob's text, or null when it is gone (deleted concurrently, or lost with a data dir). */
  async read(key: string): Promise<string | null> {
    try {
      return await fs.readFile(this.file(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Gives `to` the content `from` has now: a hard link (no copy, and a later overwrite or delete of
   * `from` leaves `to` as it was), or a copy where links are not possible. False when `from` is gone.
   */
  async link(from: string, to: string): Promise<boolean> {
    const source = this.file(from);
    const target = this.file(to);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rm(target, { force: true });
      await fs.link(source, target);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return false;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK') throw err;
    }
    const content = await this.read(from);
    if (content === null) return false;
    await this.put(to, content);
    return true;
  }

  async delete(keys: Iterable<string>): Promise<void> {
    await Promise.all([...keys].map((key) => fs.rm(this.file(key), { force: true })));
  }

  async deleteDevice(userId: string, deviceId: string): Promise<void> {
    await fs.rm(path.join(this.root, hash(userId, 16), hash(deviceId, 16)), { recursive: true, force: true });
  }

  async deleteUser(userId: string): Promise<void> {
    await fs.rm(path.join(this.root, hash(userId, 16)), { recursive: true, force: true });
  }
}
