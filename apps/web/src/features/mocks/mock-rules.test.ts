import { MOCK_MESSAGES, type MockData } from '@spyglass/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTag, canAddTag, errorExcerpt, mockedUrlForInput, mockedUrlToSend, parseDelayInput, parseStatusInput, validateMockData } from './mock-rules';

const route = (over: Partial<MockData> = {}) => ({
  mode: 'default' as const, responseMode: 'static' as const, mockedUrl: 'https://api.example.com/todos', statusCode: 200,
  code: '', mapRemoteUrl: '', ...over,
});

describe('status code input (spec 002 §5)', () => {
  it('falls back to 200 for a non-numeric entry and keeps integers', () => {
    expect(parseStatusInput('')).toBe(200);
    expect(parseStatusInput('abc')).toBe(200);
    expect(parseStatusInput(' 418 ')).toBe(418);
    expect(parseStatusInput('404.7')).toBe(404);
    expect(parseStatusInput('42')).toBe(42);
  });
});

describe('delay input (spec 001 §5)', () => {
  it('is an integer; non-numeric becomes empty; negative becomes 0', () => {
    expect(parseDelayInput('')).toBeNull();
    expect(parseDelayInput('soon')).toBeNull();
    expect(parseDelayInput('1e3')).toBeNull();
    expect(parseDelayInput('-250')).toBe(0);
    expect(parseDelayInput('0')).toBe(0);
    expect(parseDelayInput('1500')).toBe(1500);
    expect(parseDelayInput('12.9')).toBe(12);
  });

  it('never gives a negative or fractional delay', () => {
    fc.assert(fc.property(fc.string(), (raw) => {
      const delay = parseDelayInput(raw);
      return delay === null || (Number.isInteger(delay) && delay >= 0);
    }));
  });
});

describe('mocked URL of an item mock (spec 001 §5)', () => {
  it('escapes ? and falls back to the original URL when empty', () => {
    expect(mockedUrlToSend('https://a.example/x?page=*', 'https://a.example/y')).toBe('https://a.example/x\\?page=*');
    expect(mockedUrlToSend('  ', 'https://a.example/y?q=1')).toBe('https://a.example/y\\?q=1');
    expect(mockedUrlToSend('https://a.example/x\\?a=1', '')).toBe('https://a.example/x\\?a=1');
  });

  it('shows a sent URL as it was typed', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !s.includes('\\')), (url) =>
      mockedUrlForInput(mockedUrlToSend(url, '')) === url));
  });
});

describe('tags (spec 002 §5)', () => {
  it('ignores blanks and duplicates, trims, and stops at 10', () => {
    expect(addTag([], '   ')).toEqual([]);
    expect(addTag(['a'], ' b ')).toEqual(['a', 'b']);
    expect(addTag(['a'], 'a')).toEqual(['a']);
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(addTag(ten, 'eleven')).toBe(ten);
    expect(canAddTag(ten)).toBe(false);
    expect(canAddTag(ten.slice(1))).toBe(true);
  });

  it('never holds more than 10 tags or a blank one', () => {
    fc.assert(fc.property(fc.array(fc.string(), { maxLength: 30 }), (inputs) => {
      const tags = inputs.reduce<readonly string[]>((acc, raw) => addTag(acc, raw), []);
      return tags.length <= 10 && tags.every((t) => t.trim() === t && t !== '');
    }));
  });
});

describe('validation messages (spec 002 §8)', () => {
  it('passes a complete route', () => {
    expect(validateMockData(route())).toEqual({});
  });

  it('requires the mocked URL, and one that is a pattern', () => {
    expect(validateMockData(route({ mockedUrl: 'https://a.example/bad path' })).mockedUrl).toMatch(/^Invalid URL pattern/);
    expect(validateMockData(route({ mockedUrl: '  ' }))).toEqual({ mockedUrl: MOCK_MESSAGES.urlRequired });
    expect(MOCK_MESSAGES.urlRequired).toBe('Mocked URL is required');
  });

  it('requires a status code from 100 to 599', () => {
    expect(validateMockData(route({ statusCode: Number.NaN }))).toEqual({ statusCode: 'Status code is required' });
    expect(validateMockData(route({ statusCode: 99 })).statusCode).toBe(MOCK_MESSAGES.statusRange);
    expect(validateMockData(route({ statusCode: 600 })).statusCode).toBe(MOCK_MESSAGES.statusRange);
  });

  it('requires code in dynamic mode only', () => {
    expect(validateMockData(route({ responseMode: 'dynamic', code: ' \n' }))).toEqual({ code: 'Code is required' });
    expect(validateMockData(route({ responseMode: 'static', code: '' }))).toEqual({});
  });

  it('requires an http(s) target in mapRemote mode, where status and code do not apply', () => {
    expect(validateMockData(route({ mode: 'mapRemote', mapRemoteUrl: 'localhost:3000', statusCode: Number.NaN }))).toEqual({ mapRemoteUrl: MOCK_MESSAGES.mapRemoteUrlRequired });
    expect(validateMockData(route({ mode: 'mapRemote', mapRemoteUrl: 'http://localhost:3000' }))).toEqual({});
  });

  it('cuts an error stack to its first lines', () => {
    expect(errorExcerpt('SyntaxError: x\n  at a\n  at b\n  at c\n  at d\n  at e')).toBe('SyntaxError: x\n  at a\n  at b\n  at c');
  });
});
