import { describe, expect, it } from 'vitest';
import { newEntryProblem, newValueFromText, rowsOf, valueFromText, valueText, visibleRows } from './user-defaults-rows';

const groups = [
  { name: 'standard', entries: [{ key: 'token', value: 'abc' }, { key: 'onboarded', value: true }] },
  { name: 'group.app', entries: [{ key: 'profile', value: { name: 'Ann' } }] },
];

describe('user defaults rows', () => {
  it('flattens groups to name, key and value, sorted by name', () => {
    expect(visibleRows(rowsOf(groups), '').map((row) => `${row.name}/${row.key}`)).toEqual(['group.app/profile', 'standard/onboarded', 'standard/token']);
  });

  it('searches name, key and value joined, ignoring case', () => {
    const rows = rowsOf(groups);
    expect(visibleRows(rows, 'ANN').map((row) => row.key)).toEqual(['profile']);
    expect(visibleRows(rows, 'STANDARD').map((row) => row.key)).toEqual(['onboarded', 'token']);
    expect(visibleRows(rows, 'true').map((row) => row.key)).toEqual(['onboarded']);
    expect(visibleRows(rows, 'app profile')).toHaveLength(1);
    expect(visibleRows(rows, 'nothing')).toEqual([]);
  });

  it('shows strings as they are and the rest as JSON', () => {
    expect(valueText('a"b')).toBe('a"b');
    expect(valueText(false)).toBe('false');
    expect(valueText({ a: [1] })).toBe('{"a":[1]}');
  });

  it('keeps the kind of an edited value', () => {
    expect(valueFromText('{"a":1}', 'text')).toBe('{"a":1}');
    expect(valueFromText('False', true)).toBe(false);
    expect(valueFromText('maybe', true)).toBe('maybe');
    expect(valueFromText('42', 7)).toBe(42);
    expect(valueFromText('{"a":2}', { a: 1 })).toEqual({ a: 2 });
    expect(valueFromText('{broken', { a: 1 })).toBe('{broken');
  });

  it('reads a new value as JSON when it is JSON, else as the text typed', () => {
    expect(newValueFromText('true')).toBe(true);
    expect(newValueFromText('42')).toBe(42);
    expect(newValueFromText('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(newValueFromText('"007"')).toBe('007');
    expect(newValueFromText('dark mode')).toBe('dark mode');
    expect(newValueFromText('')).toBe('');
  });

  it('refuses a new entry without a name or key, or with a key its group has', () => {
    const rows = rowsOf(groups);
    expect(newEntryProblem(rows, '', 'k')).toBe('Enter a group name');
    expect(newEntryProblem(rows, 'standard', '')).toBe('Enter a key');
    expect(newEntryProblem(rows, 'standard', 'token')).toMatch(/already has the key token/);
    expect(newEntryProblem(rows, 'standard', 'x'.repeat(201))).toMatch(/at most 200/);
    expect(newEntryProblem(rows, 'group.app', 'token')).toBeNull();
  });
});
