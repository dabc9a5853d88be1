import { describe, expect, it } from 'vitest';
import { DeviceItem } from './device-protocol';
import { DeviceInfo } from './devices';
import { SAMPLE_DEVICE_ID, SAMPLE_DEVICE_INFO, SAMPLE_ITEM_COUNT, SAMPLE_TODOS, sampleItems } from './sample-data';

describe('sample data (spec 001 §9, spec 002 Sample data)', () => {
  const endsAt = Date.UTC(2026, 10, 26, 12, 0, 0);
  const items = sampleItems(endsAt);

  it('is the device 1-demo with exactly 32 items, each a valid device item with its own id', () => {
    expect(SAMPLE_DEVICE_ID).toBe('1-demo');
    expect(SAMPLE_ITEM_COUNT).toBe(32);
    expect(items).toHaveLength(32);
    expect(DeviceInfo.parse(SAMPLE_DEVICE_INFO).platform).toBe('ios');
    for (const item of items) expect(DeviceItem.safeParse(item).success, item.id).toBe(true);
    expect(new Set(items.map((i) => i.id)).size).toBe(32);
  });

  it('holds every kind: JSON bodies, an image, errors, a slow request, a transport failure, stack traces, events, an analytics event, a screenshot', () => {
    const kinds = new Set(items.map((i) => i.type));
    expect([...kinds].sort()).toEqual(['event', 'firebaseAnalytics', 'log', 'network', 'screenshot']);
    const network = items.filter((i) => i.type === 'network');
    const statuses = network.map((i) => i.details.response?.statusCode);
    expect(statuses).toEqual(expect.arrayContaining([200, 201, 204, 304, 401, 404, 500]));
    expect(network.some((i) => i.details.response?.bodyEncoding === 'base64' && i.details.response.headers['Content-Type'] === 'image/png')).toBe(true);
    expect(network.some((i) => (i.details.timings?.total ?? 0) >= 3000 && i.details.response)).toBe(true);
    expect(network.some((i) => i.details.error && !i.details.response)).toBe(true);
    for (const i of network) {
      const body = i.details.response?.body;
      if (body && i.details.response?.bodyEncoding !== 'base64') expect(() => JSON.parse(body)).not.toThrow();
    }
    expect(items.filter((i) => i.type === 'log' && (i.details.stackTrace?.length ?? 0) > 0)).toHaveLength(2);
  });

  it('answers the todo list with the three sample TODO items', () => {
    expect(SAMPLE_TODOS).toHaveLength(3);
    const todos = items.find((i) => i.type === 'network' && i.details.request.url.endsWith('/v1/todos?status=all'));
    expect(todos?.type === 'network' && JSON.parse(todos.details.response?.body ?? 'null')).toEqual(SAMPLE_TODOS);
  });

  it('ends at the given instant, in capture order, and is the same each time', () => {
    const times = items.map((i) => Date.parse(i.createdAt));
    expect(times.at(-1)).toBe(endsAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(sampleItems(endsAt)).toEqual(items);
  });
});
