import { newItemId } from './items';

/**
 * Where the SDK keeps its install id: `localStorage`, React Native's AsyncStorage, or anything
 * with the same two methods (sync or async).
 */
export interface KeyValueStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
}

export const INSTALL_ID_KEY = 'spyglass.installId';

/** What the protocol accepts as a device id (docs/protocol.md §2). */
export const isInstallId = (value: string): boolean => /^[A-Za-z0-9._:-]{1,200}$/.test(value);

/** Keeps values for the life of the process. */
export function memoryStorage(): KeyValueStorage {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

/**
 * The stable device id: read once, created and stored on first run. A storage that fails (full,
 * denied) costs only the stability: the device then gets an id for this run.
 */
export async function loadInstallId(storage: KeyValueStorage): Promise<string> {
  try {
    const existing = await storage.getItem(INSTALL_ID_KEY);
    if (existing && isInstallId(existing)) return existing;
  } catch {
    return newItemId();
  }
  const id = newItemId();
  try {
    await storage.setItem(INSTALL_ID_KEY, id);
  } catch {
    // kept for this run only
  }
  return id;
}
