import fs from 'node:fs/promises';
import path from 'node:path';
import type { DeviceInfo } from '@spyglass/protocol';
import type { UserDefaultsStore } from '../user-defaults';
import { appKey, configDir } from './node-install-id';

/**
 * Node keeps user defaults in a JSON file: `file` when the app names one, else one per app beside
 * its install id (`<config dir>/spyglass/user-defaults/<app>.json`). A write goes to a temporary
 * file renamed over the old one, so a crash never leaves half a document.
 */
export function jsonFileUserDefaultsStore(device: Partial<DeviceInfo>, file?: string): UserDefaultsStore {
  const target = file ?? path.join(configDir(), 'spyglass', 'user-defaults', `${appKey(device)}.json`);
  return {
    async load() {
      try {
        return await fs.readFile(target, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async save(json) {
      await fs.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      await fs.writeFile(temporary, json);
      await fs.rename(temporary, target);
    },
  };
}
