import { describe, expect, it } from 'vitest';
import { DeviceItem, ITEM_LIMITS, ITEM_TEXT_LIMITS as T } from '@spyglass/protocol';
import { checkItem } from './item-check';

const at = '2026-01-02T03:04:05.123Z';
const base = { id: 'i-1', createdAt: at };
const network = (details: Record<string, unknown> = {}, request: Record<string, unknown> = {}) =>
  ({ ...base, type: 'network', details: { request: { method: 'GET', url: 'https://x.example/', headers: {}, ...request }, ...details } });
const response = (fields: Record<string, unknown>) => network({ response: { statusCode: 200, headers: {}, ...fields } });
const many = (count: number, make: (i: number) => [string, string]) => Object.fromEntries(Array.from({ length: count }, (_, i) => make(i)));

/** Each bounded field an item of this SDK can carry, filled to a length: one case at the limit, one past it. */
const FIELDS: [string, number, (length: number) => unknown][] = [
  ['level', T.level, (n) => ({ ...base, type: 'log', level: 'x'.repeat(n), details: { message: 'm' } })],
  ['tags', ITEM_LIMITS.maxTags, (n) => ({ ...base, type: 'event', tags: Array(n).fill('t'), details: { name: 'e' } })],
  ['tag', T.tag, (n) => ({ ...base, type: 'event', tags: ['t'.repeat(n)], details: { name: 'e' } })],
  ['log message', ITEM_LIMITS.maxMessageLength, (n) => ({ ...base, type: 'log', details: { message: 'm'.repeat(n) } })],
  ['log name', T.name, (n) => ({ ...base, type: 'log', details: { message: 'm', name: 'n'.repeat(n) } })],
  ['log category', T.category, (n) => ({ ...base, type: 'log', details: { message: 'm', category: 'c'.repeat(n) } })],
  ['log subsystem', T.category, (n) => ({ ...base, type: 'log', details: { message: 'm', subsystem: 's'.repeat(n) } })],
  ['log file', T.fileName, (n) => ({ ...base, type: 'log', details: { message: 'm', file: 'f'.repeat(n) } })],
  ['stack frames', T.stackFrames, (n) => ({ ...base, type: 'log', details: { message: 'm', stackTrace: Array(n).fill({ methodName: 'f' }) } })],
  ['frame method', T.name, (n) => ({ ...base, type: 'log', details: { message: 'm', stackTrace: [{ methodName: 'f'.repeat(n) }] } })],
  ['frame class', T.name, (n) => ({ ...base, type: 'log', details: { message: 'm', stackTrace: [{ className: 'c'.repeat(n) }] } })],
  ['frame file', T.fileName, (n) => ({ ...base, type: 'log', details: { message: 'm', stackTrace: [{ fileName: 'f'.repeat(n) }] } })],
  ['event name', T.name, (n) => ({ ...base, type: 'event', details: { name: 'e'.repeat(n) } })],
  ['event category', T.category, (n) => ({ ...base, type: 'event', details: { name: 'e', category: 'c'.repeat(n) } })],
  ['analytics name', T.name, (n) => ({ ...base, type: 'firebaseAnalytics', details: { name: 'a'.repeat(n) } })],
  ['analytics level', T.level, (n) => ({ ...base, type: 'firebaseAnalytics', details: { name: 'a', level: 'l'.repeat(n) } })],
  ['screenshot name', T.name, (n) => ({ ...base, type: 'screenshot', details: { name: 's'.repeat(n) } })],
  ['screenshot type', T.mimeType, (n) => ({ ...base, type: 'screenshot', details: { name: 's', mimeType: 'i'.repeat(n) } })],
  ['method', T.method, (n) => network({}, { method: 'G'.repeat(n) })],
  ['url', ITEM_LIMITS.maxUrlLength, (n) => network({}, { url: `https://x.example/${'p'.repeat(n - 18)}` })],
  ['header count', ITEM_LIMITS.maxHeaders, (n) => network({}, { headers: many(n, (i) => [`h${i}`, 'v']) })],
  ['header name', T.headerName, (n) => network({}, { headers: { ['h'.repeat(n)]: 'v' } })],
  ['header value', ITEM_LIMITS.maxHeaderValue, (n) => network({}, { headers: { h: 'v'.repeat(n) } })],
  ['request http version', T.httpVersion, (n) => network({}, { httpVersion: 'H'.repeat(n) })],
  ['status text', T.statusText, (n) => response({ statusText: 'o'.repeat(n) })],
  ['response header value', ITEM_LIMITS.maxHeaderValue, (n) => response({ headers: { h: 'v'.repeat(n) } })],
  ['error', T.error, (n) => network({ error: 'e'.repeat(n) })],
  ['mapped URL', ITEM_LIMITS.maxUrlLength, (n) => network({ mockedBy: { kind: 'mapRemote', id: 'r', mappedUrl: 'u'.repeat(n) } })],
];

describe('checkItem', () => {
  it.each(FIELDS)('agrees with the DeviceItem schema on the bound of %s', (_name, limit, make) => {
    for (const length of [limit, limit + 1]) {
      const item = make(length) as DeviceItem;
      expect(checkItem(item) === undefined, `length ${length}`).toBe(DeviceItem.safeParse(item).success);
    }
    expect(checkItem(make(limit + 1) as DeviceItem)).toBeDefined();
  });
});
