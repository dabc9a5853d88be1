import { describe, expect, it } from 'vitest';
import { bytesToBase64, captureBodyInit, captureBytes, captureText, isTextContentType } from './body';

const enc = new TextEncoder();

describe('body capture', () => {
  it('tells text content types from binary ones', () => {
    for (const t of ['application/json', 'text/html; charset=utf-8', 'application/xml', 'application/vnd.api+json', 'application/x-www-form-urlencoded', 'image/svg+xml']) {
      expect(isTextContentType(t)).toBe(true);
    }
    for (const t of ['image/png', 'application/octet-stream', 'application/pdf', undefined, null]) expect(isTextContentType(t)).toBe(false);
  });

  it('keeps text as text and binary as base64', () => {
    expect(captureBytes(enc.encode('{"a":1}'), 'application/json', 100)).toEqual({ body: '{"a":1}', bodyEncoding: 'utf8', bodySize: 7 });
    expect(captureBytes(new Uint8Array([0, 255, 1]), 'image/png', 100)).toEqual({ body: 'AP8B', bodyEncoding: 'base64', bodySize: 3 });
  });

  it('decides by the bytes when there is no content type', () => {
    expect(captureBytes(enc.encode('plain words'), undefined, 100).bodyEncoding).toBe('utf8');
    expect(captureBytes(new Uint8Array([0xff, 0xfe, 0x00]), undefined, 100).bodyEncoding).toBe('base64');
  });

  it('cuts at the cap and says so', () => {
    expect(captureText('é'.repeat(10), 6)).toMatchObject({ body: 'ééé', bodyTruncated: true, bodySize: 20 });
    expect(captureBytes(new Uint8Array(10), 'image/png', 4)).toMatchObject({ body: bytesToBase64(new Uint8Array(4)), bodyTruncated: true, bodySize: 10 });
  });

  it('reads every fetch body type without consuming it', async () => {
    expect(await captureBodyInit(new URLSearchParams({ a: '1', b: 'x y' }), null, 100)).toMatchObject({ body: 'a=1&b=x+y' });
    expect(await captureBodyInit(new Uint8Array([104, 105]), 'text/plain', 100)).toMatchObject({ body: 'hi' });
    expect(await captureBodyInit(new Blob(['blob text'], { type: 'text/plain' }), undefined, 100)).toMatchObject({ body: 'blob text' });
    const form = new FormData();
    form.append('name', 'Ada');
    form.append('avatar', new Blob([new Uint8Array(12)], { type: 'image/png' }), 'me.png');
    expect((await captureBodyInit(form, undefined, 1000))!.body).toBe('name=Ada\navatar=<file me.png image/png 12 bytes>');
    expect(await captureBodyInit(new ReadableStream(), undefined, 100)).toEqual({ body: null });
    expect(await captureBodyInit(undefined, undefined, 100)).toBeUndefined();
  });
});
