import { describe, expect, it } from 'vitest';
import { memoryStorage } from './install-id';
import { keyValueUserDefaultsStore, UserDefaultsBook, USER_DEFAULTS_STORAGE_KEY, type UserDefaultsGroup } from './user-defaults';

function book(storage = memoryStorage()) {
  const changes: UserDefaultsGroup[][] = [];
  const defaults = new UserDefaultsBook(Promise.resolve(keyValueUserDefaultsStore(storage)), (groups) => changes.push(groups));
  return { defaults, changes, storage };
}

describe('user defaults', () => {
  it('keeps strings, booleans and JSON by suite, in the store, and reports the app’s writes', async () => {
    const { defaults, changes, storage } = book();
    await defaults.set('token', 'abc');
    await defaults.set('onboarded', true, 'group.app');
    await defaults.set('profile', { name: 'Ann', tags: ['a'] }, 'group.app');
    expect(await defaults.get('token')).toBe('abc');
    expect(await defaults.get('onboarded', 'group.app')).toBe(true);
    expect(await defaults.groups()).toEqual([
      { name: 'standard', entries: [{ key: 'token', value: 'abc' }] },
      { name: 'group.app', entries: [{ key: 'onboarded', value: true }, { key: 'profile', value: { name: 'Ann', tags: ['a'] } }] },
    ]);
    expect(JSON.parse(String(await storage.getItem(USER_DEFAULTS_STORAGE_KEY)))).toEqual(await defaults.groups());
    expect(changes).toHaveLength(3);
    expect(await defaults.remove('token')).toBe(true);
    expect(await defaults.remove('token')).toBe(false);
    expect((await defaults.groups()).map((g) => g.name)).toEqual(['group.app']);
  });

  it('hands out copies: changing a value read does not change the store', async () => {
    const { defaults } = book();
    const value = { n: 1 };
    await defaults.set('k', value);
    value.n = 2;
    const read = (await defaults.get('k')) as { n: number };
    read.n = 3;
    expect(await defaults.get('k')).toEqual({ n: 1 });
  });

  it('runs the dashboard’s operations without reporting them as the app’s', async () => {
    const { defaults, changes } = book();
    await defaults.run({ op: 'set', name: 'standard', key: 'a', value: '1' });
    const renamed = await defaults.run({ op: 'rename', name: 'standard', oldKey: 'a', newKey: 'b', value: '2' });
    expect(renamed.groups).toEqual([{ name: 'standard', entries: [{ key: 'b', value: '2' }] }]);
    expect((await defaults.run({ op: 'remove', name: 'standard', key: 'b' })).groups).toEqual([]);
    expect((await defaults.run({ op: 'list' })).groups).toEqual([]);
    expect(changes).toEqual([]);
  });

  it('refuses what it cannot keep and stays as it was', async () => {
    const { defaults } = book();
    await defaults.set('k', 'v');
    await expect(defaults.run({ op: 'nope' })).rejects.toThrow('Unknown user defaults operation: nope');
    await expect(defaults.run({ op: 'set', name: '', key: 'k', value: 1 })).rejects.toThrow('suite name');
    await expect(defaults.set('big', 'x'.repeat(70_000))).rejects.toThrow('at most');
    await expect(defaults.set('fn', (() => 1) as never)).rejects.toThrow('cannot be stored as JSON');
    expect(await defaults.groups()).toEqual([{ name: 'standard', entries: [{ key: 'k', value: 'v' }] }]);
  });

  it('reads what an earlier run stored, and a store that cannot be read counts as empty', async () => {
    const storage = memoryStorage();
    await book(storage).defaults.set('kept', 'yes');
    expect(await book(storage).defaults.get('kept')).toBe('yes');
    await storage.setItem(USER_DEFAULTS_STORAGE_KEY, '{not json');
    expect(await book(storage).defaults.groups()).toEqual([]);
  });

  it('keeps concurrent writes in order', async () => {
    const { defaults } = book();
    await Promise.all(Array.from({ length: 20 }, (_, i) => defaults.set(`k${i}`, i)));
    expect((await defaults.groups())[0]!.entries.map((e) => e.value)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
