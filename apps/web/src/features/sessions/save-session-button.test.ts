import { describe, expect, it } from 'vitest';
import { ListStore } from '../requests/store/list-store';
import { logItem } from '../requests/store/test-items';
import { idsToSave } from './save-session-button';

describe('what Save Session saves', () => {
  const items = [logItem('a', 1000, { level: 'info' }), logItem('b', 2000, { level: 'error' }), logItem('c', 3000, { level: 'error' })];

  it('saves every shown item when nothing is selected, the filter applied', () => {
    const store = new ListStore({ filter: (item) => item.level === 'error' });
    store.upsertMany(items);
    expect(idsToSave(store).sort()).toEqual(['b', 'c']);
  });

  it('saves only the selection when there is one', () => {
    const store = new ListStore();
    store.upsertMany(items);
    store.selectOnly(store.indexOfId('b'));
    expect(idsToSave(store)).toEqual(['b']);
    store.clearSelection();
    expect(idsToSave(store).sort()).toEqual(['a', 'b', 'c']);
  });

  it('has nothing to save in an empty list', () => {
    expect(idsToSave(new ListStore())).toEqual([]);
  });
});
