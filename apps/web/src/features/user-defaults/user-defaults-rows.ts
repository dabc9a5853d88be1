import { USER_DEFAULTS_LIMITS, type UserDefaultsGroup, type UserDefaultValue } from '@spyglass/protocol';

/** One entry as the table shows it: the flat record of spec 002 §3 (name, key, value). */
export interface UserDefaultRow {
  name: string;
  key: string;
  value: UserDefaultValue;
}

export const rowId = (row: Pick<UserDefaultRow, 'name' | 'key'>) => `${row.name}\n${row.key}`;

export function rowsOf(groups: readonly UserDefaultsGroup[]): UserDefaultRow[] {
  return groups.flatMap((group) => group.entries.map((entry) => ({ name: group.name, key: entry.key, value: entry.value })));
}

/** The value as its cell shows it: strings as they are, anything else as JSON. */
export const valueText = (value: UserDefaultValue): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The value pretty-printed for the JSON modal. */
export const valueJson = (value: UserDefaultValue): string => JSON.stringify(value, null, 2);

/**
 * What an edited cell's text stores, keeping the entry's kind: a string stays a string, a boolean
 * takes `true`/`false`, a number or structured value takes JSON. Text that does not fit its kind
 * is stored as a string, as typed.
 */
export function valueFromText(text: string, previous: UserDefaultValue): UserDefaultValue {
  if (typeof previous === 'string') return text;
  if (typeof previous === 'boolean') {
    const lowered = text.trim().toLowerCase();
    if (lowered === 'true' || lowered === 'false') return lowered === 'true';
    return text;
  }
  try {
    return JSON.parse(text) as UserDefaultValue;
  } catch {
    return text;
  }
}

/** Spec 002 'User defaults view': case-insensitive search over name, key and value joined; sorted by name ascending. */
export function visibleRows(rows: readonly UserDefaultRow[], query: string): UserDefaultRow[] {
  const needle = query.trim().toLowerCase();
  const matching = needle === '' ? [...rows] : rows.filter((row) => `${row.name} ${row.key} ${valueText(row.value)}`.toLowerCase().includes(needle));
  return matching.sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
}

/** A new entry's value from its text: JSON when it reads as JSON (true, 42, [1, 2], {"a": 1}, "quoted"), else the text itself. */
export function newValueFromText(text: string): UserDefaultValue {
  try {
    return JSON.parse(text) as UserDefaultValue;
  } catch {
    return text;
  }
}

/** Why a new entry cannot be added as typed, or null: an empty or too long name or key, or a key its group already has. */
export function newEntryProblem(rows: readonly UserDefaultRow[], name: string, key: string): string | null {
  if (name === '') return 'Enter a group name';
  if (name.length > USER_DEFAULTS_LIMITS.maxNameLength) return `A group name has at most ${USER_DEFAULTS_LIMITS.maxNameLength} characters`;
  if (key === '') return 'Enter a key';
  if (key.length > USER_DEFAULTS_LIMITS.maxKeyLength) return `A key has at most ${USER_DEFAULTS_LIMITS.maxKeyLength} characters`;
  if (rows.some((row) => row.name === name && row.key === key)) return `${name} already has the key ${key}: double-click its value to change it`;
  return null;
}
