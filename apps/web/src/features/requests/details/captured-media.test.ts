import { describe, expect, it } from 'vitest';
import { base64Bytes, downloadName, hexDump, inertType } from './captured-media';
import { previewDocument } from './html-preview';

describe('base64Bytes', () => {
  it('decodes base64, ignoring whitespace', () => {
    expect([...base64Bytes('AAEC/w==')]).toEqual([0, 1, 2, 255]);
    expect([...base64Bytes('AAEC\n/w==')]).toEqual([0, 1, 2, 255]);
  });
});

describe('hexDump', () => {
  it('writes offset, hex and printable characters, 16 bytes a line', () => {
    const bytes = new TextEncoder().encode('%PDF-1.4\n\u0007ABCDEFGHIJ');
    expect(hexDump(bytes)).toBe([
      '00000000  25 50 44 46 2d 31 2e 34 0a 07 41 42 43 44 45 46  %PDF-1.4..ABCDEF',
      '00000010  47 48 49 4a                                      GHIJ',
    ].join('\n'));
  });

  it('stops at the limit', () => {
    expect(hexDump(new Uint8Array(100), 32).split('\n')).toHaveLength(2);
    expect(hexDump(new Uint8Array(0))).toBe('');
  });
});

describe('inertType', () => {
  it('keeps raster images and video, turns everything else into octet-stream', () => {
    expect(inertType('image/png')).toBe('image/png');
    expect(inertType('video/mp4')).toBe('video/mp4');
    expect(inertType('image/svg+xml')).toBe('application/octet-stream');
    expect(inertType('text/html')).toBe('application/octet-stream');
    expect(inertType('application/pdf')).toBe('application/octet-stream');
  });
});

describe('downloadName', () => {
  it('takes the last URL segment and adds an extension for the type', () => {
    expect(downloadName('https://a.example/files/invoice.pdf', 'response-body', 'application/pdf')).toBe('invoice.pdf');
    expect(downloadName('https://a.example/images/hero', 'response-body', 'image/png')).toBe('hero.png');
    expect(downloadName('https://a.example/', 'response-body', 'image/png')).toBe('response-body.png');
    expect(downloadName(undefined, 'Home 3', 'image/png')).toBe('Home 3.png');
  });

  it('replaces characters that file systems refuse', () => {
    expect(downloadName('https://a.example/a%3Cb%3E%3A%22c', 'x', 'application/octet-stream')).toBe('a_b___c.bin');
    expect(downloadName('not a url', 'body', 'video/mp4')).toBe('body.mp4');
  });
});

describe('previewDocument', () => {
  it('puts a policy that loads nothing in front of the document, after its doctype', () => {
    const doc = previewDocument('<!doctype html><html><body><script>alert(1)</script></body></html>');
    expect(doc.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'none\';')).toBe(true);
    expect(previewDocument('<p>hi</p>')).toMatch(/^<meta http-equiv="Content-Security-Policy"[^>]*><p>hi<\/p>$/);
  });
});
