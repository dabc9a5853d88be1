import { describe, expect, it } from 'vitest';
import {
  formatDuration, formatSize, formatTimestamp, itemCategory, itemStatus, itemSubsystem, itemSummary, statusClass, statusText,
} from './format';
import { analyticsItem, eventItem, logItem, networkItem, screenshotItem } from './item-fixtures';

describe('formatSize', () => {
  it('shows KB under 1 MB, MB below 100 GB and GB from 100 GB (spec 001 §9)', () => {
    expect(formatSize(0)).toBe('0 KB');
    expect(formatSize(512)).toBe('0.5 KB');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1024 * 1024 - 1)).toBe('1,024 KB');
    expect(formatSize(1024 * 1024)).toBe('1 MB');
    expect(formatSize(5.25 * 1024 * 1024)).toBe('5.25 MB');
    expect(formatSize(50 * 1024 ** 3)).toBe('51,200 MB');
    expect(formatSize(100 * 1024 ** 3)).toBe('100 GB');
    expect(formatSize(1.5 * 1024 ** 4)).toBe('1,536 GB');
  });

  it('is blank for missing or impossible sizes', () => {
    expect(formatSize(null)).toBe('');
    expect(formatSize(undefined)).toBe('');
    expect(formatSize(-1)).toBe('');
    expect(formatSize(Number.NaN)).toBe('');
  });
});

describe('formatDuration', () => {
  it('scales from milliseconds to minutes', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(0.423)).toBe('0.42 ms');
    expect(formatDuration(120.4)).toBe('120 ms');
    expect(formatDuration(1250)).toBe('1.25 s');
    expect(formatDuration(60_000)).toBe('1 min');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('');
  });
});

describe('formatTimestamp', () => {
  it('uses 24 hours with milliseconds (spec 001 §9)', () => {
    expect(formatTimestamp('2026-11-23T21:03:07.045Z', { utc: true })).toBe('21:03:07.045');
    expect(formatTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6), { utc: true, withDate: true })).toBe('2026-01-02 03:04:05.006');
  });

  it('formats in the viewer time zone by default', () => {
    const d = new Date(2026, 10, 23, 14, 5, 9, 7);
    expect(formatTimestamp(d)).toBe('14:05:09.007');
    expect(formatTimestamp(d.toISOString(), { withDate: true })).toBe('2026-11-23 14:05:09.007');
  });

  it('is blank for missing or unparsable values', () => {
    expect(formatTimestamp(null)).toBe('');
    expect(formatTimestamp('yesterday')).toBe('');
  });
});

describe('status', () => {
  it('maps codes to the colour classes of spec 001 §5', () => {
    expect([100, 200, 299, 300, 399, 400, 499, 500, 999].map(statusClass))
      .toEqual(['success', 'success', 'success', 'info', 'info', 'warning', 'warning', 'error', 'error']);
    expect(statusClass(null)).toBeNull();
  });

  it('names only the listed codes and leaves the rest blank', () => {
    expect(statusText(200)).toBe('OK');
    expect(statusText(304)).toBe('Not Modified');
    expect(statusText(503)).toBe('Service Unavailable');
    expect(statusText(418)).toBe('');
    expect(statusText(202)).toBe('');
    expect(statusText(null)).toBe('');
  });

  it('reads the response status of network items', () => {
    expect(itemStatus(networkItem({ status: 404 }))).toBe(404);
    expect(itemStatus(networkItem({ status: null }))).toBeNull();
    expect(itemStatus(logItem())).toBeNull();
  });
});

describe('row texts', () => {
  it('summarises every item type', () => {
    expect(itemSummary(networkItem({ method: 'POST', url: 'https://x.test/a' }))).toBe('POST https://x.test/a');
    expect(itemSummary(logItem({ message: 'héllo 👋' }))).toBe('héllo 👋');
    expect(itemSummary(eventItem({ name: 'tap' }))).toBe('tap');
    expect(itemSummary(screenshotItem({ name: 'Home' }))).toBe('Home');
    expect(itemSummary(analyticsItem({ name: 'screen_view' }))).toBe('screen_view');
  });

  it('reads category and subsystem where the type has them', () => {
    expect(itemCategory(logItem({ category: 'net' }))).toBe('net');
    expect(itemSubsystem(logItem({ subsystem: 'com.app' }))).toBe('com.app');
    expect(itemCategory(networkItem())).toBeNull();
    expect(itemSubsystem(eventItem())).toBeNull();
  });
});
