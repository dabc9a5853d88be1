import { describe, expect, it } from 'vitest';
import { INSTALL_ID_KEY, loadInstallId, memoryStorage, type KeyValueStorage } from './install-id';

describe('loadInstallId', () => {
  it('creates an id once and keeps it', async () => {
    const storage = memoryStorage();
    const first = await loadInstallId(storage);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await loadInstallId(storage)).toBe(first);
  });

  it('works with async storage such as AsyncStorage', async () => {
    const values = new Map<string, string>();
    const storage: KeyValueStorage = { getItem: async (k) => values.get(k) ?? null, setItem: async (k, v) => void values.set(k, v) };
    const id = await loadInstallId(storage);
    expect(values.get(INSTALL_ID_KEY)).toBe(id);
  });

  it('replaces a stored value the protocol would refuse', async () => {
    const storage = memoryStorage();
    await storage.setItem(INSTALL_ID_KEY, 'not a valid id!');
    expect(await loadInstallId(storage)).not.toBe('not a valid id!');
  });

  it('still answers an id when the storage fails', async () => {
    const failing: KeyValueStorage = {
      getItem: () => { throw new Error('denied'); },
      setItem: () => { throw new Error('denied'); },
    };
    expect(await loadInstallId(failing)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await loadInstallId({ getItem: () => null, setItem: async () => { throw new Error('full'); } })).toMatch(/^[0-9a-f-]{36}$/);
  });
});
