import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeviceInfo } from '@spyglass/protocol';
import { isInstallId } from '../install-id';
import { newItemId } from '../items';

/**
 * The install id of a Node app: kept in a small file in the user's config directory, one per app
 * (`device.bundleId`, else the nearest package.json of the main script, else the script itself),
 * so that a restarted app is the same device and two apps on one machine are two devices.
 *
 * Two instances of one app running at once would otherwise share an id, and the server lets only
 * one connection hold a device (the other is `replaced`). So each running instance claims a slot
 * with a lock file naming its pid: the first instance is slot 0, a second one running beside it
 * slot 1, and so on; a slot whose process has ended is free again. A directory that cannot be
 * written costs only the stability: the id is then this run's own.
 */
export async function claimInstallId(device: Partial<DeviceInfo>): Promise<{ id: string; release?: () => void }> {
  try {
    const dir = path.join(configDir(), 'spyglass', 'devices');
    fs.mkdirSync(dir, { recursive: true });
    const base = path.join(dir, appKey(device));
    for (let slot = 0; slot < MAX_SLOTS; slot++) {
      const lock = `${base}.${slot}.lock`;
      if (!claim(lock)) continue;
      const release = () => {
        process.off('exit', release);
        claimed.delete(lock);
        fs.rmSync(lock, { force: true });
      };
      process.once('exit', release);
      return { id: slotId(`${base}.${slot}.id`), release };
    }
  } catch {
    // read-only home, no home at all (some containers): an id for this run
  }
  return { id: newItemId() };
}

/** More instances of one app than this at once get an id per run. */
const MAX_SLOTS = 64;

/** Locks this process holds: a second client in the same process takes the next slot. */
const claimed = new Set<string>();

function claim(lock: string): boolean {
  if (claimed.has(lock)) return false;
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(fs.readFileSync(lock, 'utf8'));
    if (holder !== process.pid && isRunning(holder)) return false;
    // Left behind by an instance that ended without cleaning up (killed, crashed).
    fs.writeFileSync(lock, String(process.pid));
  }
  claimed.add(lock);
  return true;
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function slotId(file: string): string {
  try {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (isInstallId(stored)) return stored;
  } catch {
    // first run of this slot
  }
  const id = newItemId();
  fs.writeFileSync(file, id);
  return id;
}

/** Where per-user settings live: XDG on Linux, Application Support on macOS, AppData on Windows. */
export function configDir(): string {
  if (process.platform === 'win32') return process.env.APPDATA ?? path.join(os.homedir(), 'AppData', 'Roaming');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
}

/** A readable, file-safe name for the app, with a hash of where it lives so two apps never collide. */
export function appKey(device: Partial<DeviceInfo>): string {
  const main = process.argv[1] ? path.resolve(process.argv[1]) : undefined;
  let name: string;
  let place: string;
  if (device.bundleId) {
    name = device.bundleId;
    place = device.bundleId;
  } else {
    const manifest = nearestPackageJson(main ? path.dirname(main) : process.cwd());
    name = manifest?.name ?? path.basename(main ?? process.cwd());
    place = manifest?.file ?? main ?? process.cwd();
  }
  const hash = createHash('sha256').update(place).digest('hex').slice(0, 12);
  return `${name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)}-${hash}`;
}

function nearestPackageJson(from: string): { name: string | undefined; file: string } | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    try {
      const { name } = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown };
      return { name: typeof name === 'string' ? name : undefined, file };
    } catch {
      // none here (or unreadable): look further up
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
