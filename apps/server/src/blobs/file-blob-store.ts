import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { BlobStore } from './blob-store';

/**
 * The embedded default: blobs as files under `DATA_DIR/blobs/<user>/<device>/<key>`. With several
 * server nodes `DATA_DIR` would have to be shared storage: use S3BlobStore instead.
 */
export class FileBlobStore extends BlobStore {
  readonly root: string;

  constructor(dataDir: string) {
    super();
    this.root = path.join(dataDir, 'blobs');
  }

  private file(key: string): string {
    return path.join(this.root, BlobStore.checked(key));
  }

  /** Writes through a temporary file and a rename, so a crash never leaves half a blob behind a key. */
  async put(key: string, content: string): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, content, 'utf8');
    await fs.rename(tmp, file);
  }

  async read(key: string): Promise<string | null> {
    try {
      return await fs.readFile(this.file(key), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** A hard link (no copy), or a copy where links are not possible. */
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
    await fs.rm(path.join(this.root, BlobStore.devicePrefix(userId, deviceId)), { recursive: true, force: true });
  }

  async deleteUser(userId: string): Promise<void> {
    await fs.rm(path.join(this.root, BlobStore.userPrefix(userId)), { recursive: true, force: true });
  }
}
