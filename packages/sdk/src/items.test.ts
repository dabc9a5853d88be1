import { describe, expect, it, vi } from 'vitest';
import { DeviceItem } from '@spyglass/protocol';
import { bytesToBase64 } from './body';
import { buildAnalyticsItem, buildEventItem, buildLogItem, buildScreenshotItem, newItemId, parseStack } from './items';

describe('item builders', () => {
  it('build items the protocol accepts, one per type', () => {
    const items = [
      buildLogItem('Checkout failed', { level: 'error', category: 'payments', metadata: { cart: 3 }, stackTrace: new Error('boom'), tags: ['checkout'] }),
      buildEventItem('screen_view', { category: 'navigation', properties: { screen: 'Cart' } }),
      buildScreenshotItem({ image: new Uint8Array([137, 80, 78, 71]), name: 'Cart', width: 2, height: 2 }, bytesToBase64),
      buildAnalyticsItem('purchase', { value: 9.99, currency: 'EUR' }, { category: 'ecommerce' }),
    ];
    for (const item of items) expect(DeviceItem.safeParse(item).success).toBe(true);
    expect(items.map((i) => i.type)).toEqual(['log', 'event', 'screenshot', 'firebaseAnalytics']);
  });

  it('fill a log item from its stack trace', () => {
    const item = buildLogItem('oops', { stackTrace: new Error('oops') });
    expect(item.type === 'log' && item.details).toMatchObject({ level: 'info', file: expect.stringContaining('items.test.ts'), line: expect.any(Number) });
    expect(item.level).toBe('info');
  });

  it('encode screenshot bytes as base64', () => {
    const item = buildScreenshotItem({ image: new Uint8Array([1, 2, 3]) }, bytesToBase64);
    expect(item.type === 'screenshot' && item.details).toMatchObject({ image: 'AQID', mimeType: 'image/png', name: expect.stringMatching(/^Screenshot /) });
  });

  it('make distinct UUIDs of version 7 that sort in the order they were made', () => {
    const ids = Array.from({ length: 1000 }, newItemId);
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(Number.parseInt(ids[0]!.replace('-', '').slice(0, 12), 16)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('make version 7 UUIDs without crypto.getRandomValues (React Native without a polyfill)', () => {
    vi.stubGlobal('crypto', undefined);
    try {
      const ids = Array.from({ length: 100 }, newItemId);
      expect(new Set(ids).size).toBe(100);
      for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('parseStack', () => {
  it('reads V8 frames', () => {
    const frames = parseStack([
      'TypeError: x is undefined',
      '    at CartService.checkout (/app/src/cart.ts:42:13)',
      '    at async main (file:///app/src/main.ts:7:3)',
      '    at /app/src/anon.js:1:2',
      '    at Array.map (native)',
    ].join('\n'));
    expect(frames).toEqual([
      { className: 'CartService', methodName: 'checkout', fileName: '/app/src/cart.ts', lineNumber: 42 },
      { methodName: 'main', fileName: 'file:///app/src/main.ts', lineNumber: 7 },
      { fileName: '/app/src/anon.js', lineNumber: 1 },
      { className: 'Array', methodName: 'map', isNativeMethod: true },
    ]);
  });

  it('reads JavaScriptCore and SpiderMonkey frames', () => {
    expect(parseStack('checkout@https://app.example.com/main.js:10:5\n@https://app.example.com/main.js:20:1')).toEqual([
      { methodName: 'checkout', fileName: 'https://app.example.com/main.js', lineNumber: 10 },
      { fileName: 'https://app.example.com/main.js', lineNumber: 20 },
    ]);
  });
});
