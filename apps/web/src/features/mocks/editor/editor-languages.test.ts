import { describe, expect, it } from 'vitest';
import { contentTypeOf, languageForContentType } from './editor-languages';

describe('body editor language', () => {
  it('follows Content-Type: html for text/html, text for text/plain, otherwise json', () => {
    expect(languageForContentType('text/html; charset=utf-8')).toBe('html');
    expect(languageForContentType('TEXT/PLAIN')).toBe('text');
    expect(languageForContentType('application/json')).toBe('json');
    expect(languageForContentType('application/xml')).toBe('json');
    expect(languageForContentType(null)).toBe('json');
  });

  it('finds the Content-Type among header rows whatever its case', () => {
    expect(contentTypeOf([{ key: 'X-A', value: '1' }, { key: ' content-type ', value: 'text/html' }])).toBe('text/html');
    expect(contentTypeOf([])).toBeNull();
  });
});
