import { describe, expect, it } from 'vitest';
import type { ViewerOutbound } from '@spyglass/protocol';
import { ListStore } from './list-store';
import { LiveFeed } from './live-feed';
import { logItem, ManualHost } from './test-items';

const T0 = Date.UTC(2026, 10, 23, 10);
const newRequest = (id: string, t: number, deviceId = 'device-1'): ViewerOutbound => ({ type: 'new_request', deviceId, request: logItem(id, T0 + t) });

function setup() {
  const store = new ListStore({ host: new ManualHost() });
  const frames: (() => void)[] = [];
  const seen = { fresh: [] as string[][], deleted: [] as string[][], cleared: 0, resync: 0 };
  const feed = new LiveFeed(store, 'device-1', {
    onNewItems: (ids) => seen.fresh.push(ids),
    onDeleted: (ids) => seen.deleted.push([...ids]),
    onCleared: () => seen.cleared++,
    onResync: () => seen.resync++,
  }, (callback) => {
    frames.push(callback);
    return () => frames.splice(frames.indexOf(callback), 1);
  });
  let renders = 0;
  store.subscribe(() => renders++);
  const frame = () => frames.shift()?.();
  return { store, feed, frames, seen, frame, renders: () => renders };
}

describe('LiveFeed', () => {
  it('applies a burst of messages in one batch at the next frame', () => {
    const { store, feed, frames, frame, seen, renders } = setup();
    for (let i = 0; i < 1000; i++) feed.push(newRequest(`i${i}`, i));
    expect(frames).toHaveLength(1);
    expect(store.count).toBe(0);
    frame();
    expect(store.count).toBe(1000);
    expect(store.rowAt(0)?.id).toBe('i999');
    expect(renders()).toBe(1);
    expect(seen.fresh).toEqual([Array.from({ length: 1000 }, (_, i) => `i${i}`)]);
  });

  it('takes a batch message like the same items sent one by one, mixed with single ones and other devices', () => {
    const { store, feed, frames, frame, seen } = setup();
    feed.push(newRequest('a', 1));
    feed.push({ type: 'new_requests', deviceId: 'device-1', requests: [logItem('b', T0 + 2), logItem('a', T0 + 1), logItem('c', T0 + 3)] });
    feed.push({ type: 'new_requests', deviceId: 'device-2', requests: [logItem('other', T0 + 4)] });
    feed.push({ type: 'requests_deleted', deviceId: 'device-1', ids: ['b'] });
    feed.push({ type: 'new_requests', deviceId: 'device-1', requests: [logItem('d', T0 + 5)] });
    expect(frames).toHaveLength(1);
    frame();
    expect([...store.rows()].map((item) => item.id)).toEqual(['d', 'c', 'a']);
    expect(seen.fresh).toEqual([['a', 'b', 'c', 'd']]);
    expect(seen.deleted).toEqual([['b']]);
  });

  it('keeps arrival order between items and deletions, and reports only new ids as new', () => {
    const { store, feed, frame, seen } = setup();
    feed.push(newRequest('a', 1));
    frame();
    feed.push(newRequest('a', 1));
    feed.push(newRequest('b', 2));
    feed.push({ type: 'requests_deleted', deviceId: 'device-1', ids: ['b'] });
    feed.push(newRequest('c', 3));
    frame();
    expect([...store.rows()].map((item) => item.id)).toEqual(['c', 'a']);
    expect(seen.fresh).toEqual([['a'], ['b', 'c']]);
    expect(seen.deleted).toEqual([['b']]);
  });

  it('clears, and drops what was queued before a clear or a resync', () => {
    const { store, feed, frame, seen } = setup();
    feed.push(newRequest('a', 1));
    frame();
    feed.push(newRequest('b', 2));
    feed.push({ type: 'requests_cleared', deviceId: 'device-1' });
    feed.push(newRequest('c', 3));
    frame();
    expect([...store.rows()].map((item) => item.id)).toEqual(['c']);
    expect(seen.cleared).toBe(1);
    feed.push({ type: 'resync', deviceId: null, reason: 'slow reader' });
    frame();
    expect(store.count).toBe(0);
    expect(seen.resync).toBe(1);
  });

  it('ignores other devices and other messages', () => {
    const { store, feed, frames } = setup();
    feed.push(newRequest('x', 1, 'device-2'));
    feed.push({ type: 'requests_cleared', deviceId: 'device-2' });
    feed.push({ type: 'pong' });
    feed.push({ type: 'device_deleted', deviceId: 'device-1' });
    expect(frames).toHaveLength(0);
    expect(store.count).toBe(0);
  });

  it('stops on dispose', () => {
    const { store, feed, frames } = setup();
    feed.push(newRequest('a', 1));
    feed.dispose();
    expect(frames).toHaveLength(0);
    feed.flush();
    expect(store.count).toBe(0);
  });
});
