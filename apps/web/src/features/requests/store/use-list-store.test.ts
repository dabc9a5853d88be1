import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ListStore } from './list-store';
import { logItem, ManualHost } from './test-items';
import { useRow, useRowCount, useRowSelected, useSelectionCount, useTotalCount } from './use-list-store';

const T0 = Date.UTC(2026, 10, 23, 10);

function StatsAndFirstRow({ store }: { store: ListStore }) {
  const count = useRowCount(store);
  const total = useTotalCount(store);
  const selected = useSelectionCount(store);
  const first = useRow(store, 0);
  const firstSelected = useRowSelected(store, 0);
  return createElement('p', null, `${selected} of ${count} (Total: ${total}) first=${first?.id ?? '-'}${firstSelected ? ' selected' : ''}`);
}

describe('list store hooks', () => {
  it('render the slices of the store they read', () => {
    const store = new ListStore({ host: new ManualHost(), filter: (item) => item.level === 'error' });
    store.upsertMany([logItem('a', T0, { level: 'error' }), logItem('b', T0 + 1), logItem('c', T0 + 2, { level: 'error' })]);
    store.selectOnly(0);
    expect(renderToString(createElement(StatsAndFirstRow, { store }))).toContain('1 of 2 (Total: 3) first=c selected');
  });
});
