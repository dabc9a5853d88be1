import { describe, expect, it } from 'vitest';
import { base64ByteLength, detectBodyKind, formFields, headerValue, mediaType, mediaTypeOf, OFF_THREAD_JSON_CHARS, parseJson, sniffImageType } from './body-kind';

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]).toString('base64');
const JPEG_BASE64 = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]).toString('base64');
const GIF_BASE64 = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64');
const WEBP_BASE64 = Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1').toString('base64');

describe('detectBodyKind', () => {
  it('tells empty bodies and non-text bodies (spec 001 §5: an object body is invalid)', () => {
    expect(detectBodyKind(undefined, undefined, 'application/json')).toBe('empty');
    expect(detectBodyKind(null, undefined, undefined)).toBe('empty');
    expect(detectBodyKind('', 'utf8', 'text/plain')).toBe('empty');
    expect(detectBodyKind({ a: 1 }, undefined, 'application/json')).toBe('invalid');
    expect(detectBodyKind([1, 2], undefined, undefined)).toBe('invalid');
    expect(detectBodyKind(42, undefined, undefined)).toBe('invalid');
  });

  it('follows the content type', () => {
    expect(detectBodyKind('{"a":1}', 'utf8', 'application/json; charset=utf-8')).toBe('json');
    expect(detectBodyKind('{"a":1}', 'utf8', 'application/problem+json')).toBe('json');
    expect(detectBodyKind('<a/>', 'utf8', 'application/xml')).toBe('xml');
    expect(detectBodyKind('<a/>', 'utf8', 'text/xml')).toBe('xml');
    expect(detectBodyKind('<rss/>', 'utf8', 'application/rss+xml')).toBe('xml');
    expect(detectBodyKind('<p>hi</p>', 'utf8', 'text/html')).toBe('html');
    expect(detectBodyKind('a=1&b=2', 'utf8', 'application/x-www-form-urlencoded')).toBe('form');
    expect(detectBodyKind('<svg xmlns="http://www.w3.org/2000/svg"/>', 'utf8', 'image/svg+xml')).toBe('image');
    expect(detectBodyKind('ok', 'utf8', 'text/plain')).toBe('text');
  });

  it('shows JSON that does not parse as text', () => {
    expect(detectBodyKind('{"broken": ', 'utf8', 'application/json')).toBe('text');
  });

  it('sniffs JSON, HTML and XML sent without a useful type', () => {
    expect(detectBodyKind('  [1, 2, {"a": null}]', 'utf8', undefined)).toBe('json');
    expect(detectBodyKind('{"a":1}', 'utf8', 'text/plain')).toBe('json');
    expect(detectBodyKind('{not json', 'utf8', 'text/plain')).toBe('text');
    expect(detectBodyKind('<!DOCTYPE html><html></html>', 'utf8', 'application/octet-stream')).toBe('html');
    expect(detectBodyKind('<html lang="en"></html>', 'utf8', undefined)).toBe('html');
    expect(detectBodyKind('<?xml version="1.0"?><a/>', 'utf8', undefined)).toBe('xml');
    expect(detectBodyKind('<img src=x onerror=alert(1)>', 'utf8', 'text/plain')).toBe('text');
  });

  it('shows base64 bodies as images, video or bytes', () => {
    expect(detectBodyKind(PNG_BASE64, 'base64', 'image/png')).toBe('image');
    expect(detectBodyKind(PNG_BASE64, 'base64', undefined)).toBe('image');
    expect(detectBodyKind('AAAA', 'base64', 'video/mp4')).toBe('video');
    expect(detectBodyKind('JVBERi0xLjQ=', 'base64', 'application/pdf')).toBe('binary');
    // A type that claims to be an image we do not render is bytes.
    expect(detectBodyKind('AAAA', 'base64', 'image/x-unknown')).toBe('binary');
    expect(detectBodyKind('AAAA', 'base64', undefined)).toBe('binary');
  });
});

describe('sniffImageType', () => {
  it('reads the magic numbers of PNG, JPEG, GIF and WebP', () => {
    expect(sniffImageType(PNG_BASE64)).toBe('image/png');
    expect(sniffImageType(JPEG_BASE64)).toBe('image/jpeg');
    expect(sniffImageType(GIF_BASE64)).toBe('image/gif');
    expect(sniffImageType(WEBP_BASE64)).toBe('image/webp');
    expect(sniffImageType('JVBERi0xLjQ=')).toBeUndefined();
    expect(sniffImageType('not base64!!')).toBeUndefined();
  });
});

describe('mediaTypeOf', () => {
  it('keeps allowed types, normalises image/jpg and sniffs the rest', () => {
    expect(mediaTypeOf(PNG_BASE64, 'base64', 'image/png; q=1')).toBe('image/png');
    expect(mediaTypeOf(JPEG_BASE64, 'base64', 'image/jpg')).toBe('image/jpeg');
    expect(mediaTypeOf(PNG_BASE64, 'base64', 'application/octet-stream')).toBe('image/png');
    expect(mediaTypeOf('AAAA', 'base64', 'text/html')).toBe('application/octet-stream');
  });
});

describe('helpers', () => {
  it('reads headers whatever the case of their names', () => {
    expect(headerValue({ 'Content-Type': 'text/html' }, 'content-type')).toBe('text/html');
    expect(headerValue({ 'content-type': 'a' }, 'CONTENT-TYPE')).toBe('a');
    expect(headerValue({}, 'content-type')).toBeUndefined();
  });

  it('takes parameters off a media type', () => {
    expect(mediaType('Application/JSON; charset=UTF-8')).toBe('application/json');
    expect(mediaType(undefined)).toBe('');
  });

  it('lists form fields in order with duplicates and decoding', () => {
    expect(formFields('a=1&b=x%20y&a=2&c=%3Cscript%3E&empty=')).toEqual([['a', '1'], ['b', 'x y'], ['a', '2'], ['c', '<script>'], ['empty', '']]);
    expect(formFields('')).toEqual([]);
  });

  it('counts base64 bytes with padding', () => {
    expect(base64ByteLength('')).toBe(0);
    expect(base64ByteLength('QQ==')).toBe(1);
    expect(base64ByteLength('QUI=')).toBe(2);
    expect(base64ByteLength('QUJD')).toBe(3);
    expect(base64ByteLength(Buffer.alloc(1000).toString('base64'))).toBe(1000);
  });
});

describe('parseJson', () => {
  it('parses, reports failures, and answers the same text from its cache', () => {
    const text = JSON.stringify({ a: [1, 2] });
    const first = parseJson(text);
    expect(first).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(parseJson(text)).toBe(first);
    expect(parseJson('{"broken": ')).toEqual({ ok: false });
    expect(parseJson('null')).toEqual({ ok: true, value: null });
  });
});

describe('large JSON bodies', () => {
  it('are taken as JSON from how they start, without parsing them on the main thread', () => {
    const big = `{"items":[${'1,'.repeat(OFF_THREAD_JSON_CHARS / 2)}1]}`;
    const broken = `${big.slice(0, -2)}`;
    expect(detectBodyKind(big, 'utf8', 'application/json')).toBe('json');
    // The worker that formats it finds out it is not JSON; the main thread never parsed it.
    expect(detectBodyKind(broken, 'utf8', undefined)).toBe('json');
    expect(parseJson('{"small": true}')).toEqual({ ok: true, value: { small: true } });
    expect(detectBodyKind(broken.slice(0, 1000), 'utf8', undefined)).toBe('text');
  });
});
