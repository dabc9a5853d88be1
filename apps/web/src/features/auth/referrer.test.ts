import { describe, expect, it } from 'vitest';
import { readReferrer } from './referrer';

describe('readReferrer', () => {
  it('prefers referrer, then ref, then utm_source', () => {
    expect(readReferrer(new URLSearchParams('utm_source=news&ref=blog&referrer=friend'))).toBe('friend');
    expect(readReferrer(new URLSearchParams('utm_source=news&ref=blog'))).toBe('blog');
    expect(readReferrer(new URLSearchParams('utm_source=news'))).toBe('news');
  });

  it('skips empty values and answers null without any', () => {
    expect(readReferrer(new URLSearchParams('referrer=&ref=blog'))).toBe('blog');
    expect(readReferrer(new URLSearchParams('email=a@b.co'))).toBeNull();
  });
});
