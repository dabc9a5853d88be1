import { describe, expect, it } from 'vitest';
import { queryParameters } from './query';

describe('queryParameters', () => {
  it('lists the parameters of a URL in order, decoded, duplicates kept', () => {
    expect(queryParameters('https://api.example.com/p?page=2&sort=price&tag=a&tag=b%20c&q=%E2%9C%93')).toEqual([
      ['page', '2'], ['sort', 'price'], ['tag', 'a'], ['tag', 'b c'], ['q', '✓'],
    ]);
  });

  it('gives an empty list for a URL without a query', () => {
    expect(queryParameters('https://api.example.com/p')).toEqual([]);
    expect(queryParameters('https://api.example.com/p?')).toEqual([]);
  });

  it('gives null for an invalid URL (spec 001 §5: No data available)', () => {
    expect(queryParameters('not a url')).toBeNull();
    expect(queryParameters('/relative/path?x=1')).toBeNull();
    expect(queryParameters('')).toBeNull();
    expect(queryParameters('http://[::1')).toBeNull();
  });

  it('uses a query sent beside the URL only when the URL has none', () => {
    expect(queryParameters('https://a.example/x', { a: '1' })).toEqual([['a', '1']]);
    expect(queryParameters('https://a.example/x?b=2', { a: '1' })).toEqual([['b', '2']]);
    expect(queryParameters('bad url', { a: '1' })).toBeNull();
  });

  it('keeps markup in values as text', () => {
    expect(queryParameters('https://a.example/?q=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E')).toEqual([['q', '<img src=x onerror=alert(1)>']]);
  });
});
