import { STANDARD_USER_DEFAULTS_SUITE, USER_DEFAULTS_LIMITS } from '@spyglass/protocol/device';
import type { KeyValueStorage } from './install-id';

/** A stored value: a string, a boolean or any structured JSON value (spec 002 §3). */
export type UserDefaultValue = string | number | boolean | null | UserDefaultValue[] | { [key: string]: UserDefaultValue };

/** One suite of preferences and its entries, as the dashboard lists them. */
export interface UserDefaultsGroup {
  name: string;
  entries: { key: string; value: UserDefaultValue }[];
}

/**
 * Where the whole set of user defaults is kept, as one JSON document: `localStorage` in browsers,
 * a JSON file in Node, AsyncStorage (or any {@link KeyValueStorage}) in React Native.
 */
export interface UserDefaultsStore {
  load(): Promise<string | null | undefined>;
  save(json: string): Promise<void>;
}

export const USER_DEFAULTS_STORAGE_KEY = 'spyglass.userDefaults';

/** A store kept under one key of a key-value storage (localStorage, AsyncStorage, memory). */
export function keyValueUserDefaultsStore(storage: KeyValueStorage): UserDefaultsStore {
  return {
    load: async () => storage.getItem(USER_DEFAULTS_STORAGE_KEY),
    save: async (json) => {
      await storage.setItem(USER_DEFAULTS_STORAGE_KEY, json);
    },
  };
}

/**
 * The app's key-value preferences grouped by suite, which the dashboard's User Defaults view reads
 * and edits (`spyglass.userDefaults`). Every method waits for the earlier ones, so writes never
 * overtake each other; a write resolves once the store has it.
 */
export interface UserDefaults {
  /** The value of `key` in `suite` (default `standard`), or undefined. */
  get(key: string, suite?: string): Promise<UserDefaultValue | undefined>;
  /** Stores a value (a copy of it); the dashboard sees the change live. */
  set(key: string, value: UserDefaultValue, suite?: string): Promise<void>;
  /** Deletes an entry; answers whether there was one. */
  remove(key: string, suite?: string): Promise<boolean>;
  /** Every suite with its entries, suites and keys in the order they were first written. */
  groups(): Promise<UserDefaultsGroup[]>;
}

/** What the dashboard asks of the store (the `user_defaults` command of docs/protocol.md §6.2). */
export type UserDefaultsOperation =
  | { op: 'list' }
  | { op: 'set'; name: string; key: string; value: UserDefaultValue }
  | { op: 'rename'; name: string; oldKey: string; newKey: string; value: UserDefaultValue }
  | { op: 'remove'; name: string; key: string };

type Suites = Map<string, Map<string, UserDefaultValue>>;

/**
 * The SDK's user defaults: held in memory after the first read, each change written to the store
 * before it resolves. Changes the app makes are reported through `onAppChange` (the client sends
 * them to the dashboard); the dashboard's own changes are answered to it instead.
 */
export class UserDefaultsBook implements UserDefaults {
  private suites: Promise<Suites> | null = null;
  /** The tail of the queue of operations: each starts once the one before has settled. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: Promise<UserDefaultsStore>, private readonly onAppChange: (groups: UserDefaultsGroup[]) => void) {}

  get(key: string, suite = STANDARD_USER_DEFAULTS_SUITE): Promise<UserDefaultValue | undefined> {
    return this.queue(async (suites) => copy(suites.get(suite)?.get(key)));
  }

  set(key: string, value: UserDefaultValue, suite = STANDARD_USER_DEFAULTS_SUITE): Promise<void> {
    return this.change({ op: 'set', name: suite, key, value }, true).then(() => undefined);
  }

  remove(key: string, suite = STANDARD_USER_DEFAULTS_SUITE): Promise<boolean> {
    return this.queue(async (suites) => {
      if (!suites.get(suite)?.has(key)) return false;
      await this.write(suites, { op: 'remove', name: suite, key }, true);
      return true;
    });
  }

  groups(): Promise<UserDefaultsGroup[]> {
    return this.queue(async (suites) => groupsOf(suites));
  }

  /** Runs one of the dashboard's operations; answers every group after it. Throws what it refuses. */
  async run(args: unknown): Promise<{ groups: UserDefaultsGroup[] }> {
    const operation = readOperation(args);
    if (operation.op === 'list') return this.groups().then((groups) => ({ groups }));
    return this.change(operation, false).then((groups) => ({ groups }));
  }

  private change(operation: Exclude<UserDefaultsOperation, { op: 'list' }>, byApp: boolean): Promise<UserDefaultsGroup[]> {
    return this.queue(async (suites) => {
      await this.write(suites, operation, byApp);
      return groupsOf(suites);
    });
  }

  /** Applies a change to a copy, saves the copy, and only then makes it the current state. */
  private async write(suites: Suites, operation: Exclude<UserDefaultsOperation, { op: 'list' }>, byApp: boolean): Promise<void> {
    checkName(operation.name, 'suite name', USER_DEFAULTS_LIMITS.maxNameLength);
    const next: Suites = new Map([...suites].map(([name, entries]) => [name, new Map(entries)]));
    const suite = next.get(operation.name) ?? new Map<string, UserDefaultValue>();
    if (operation.op === 'remove') {
      checkName(operation.key, 'key', USER_DEFAULTS_LIMITS.maxKeyLength);
      suite.delete(operation.key);
    } else {
      const key = operation.op === 'set' ? operation.key : operation.newKey;
      checkName(key, 'key', USER_DEFAULTS_LIMITS.maxKeyLength);
      if (operation.op === 'rename') {
        checkName(operation.oldKey, 'key', USER_DEFAULTS_LIMITS.maxKeyLength);
        suite.delete(operation.oldKey);
      }
      suite.set(key, storable(operation.value));
    }
    if (suite.size > 0) next.set(operation.name, suite);
    else next.delete(operation.name);
    const count = [...next.values()].reduce((n, entries) => n + entries.size, 0);
    if (count > USER_DEFAULTS_LIMITS.maxEntries) throw new Error(`User defaults hold at most ${USER_DEFAULTS_LIMITS.maxEntries} entries`);

    const groups = groupsOf(next);
    await (await this.store).save(JSON.stringify(groups));
    suites.clear();
    for (const [name, entries] of next) suites.set(name, entries);
    if (byApp) this.onAppChange(groups);
  }

  private queue<T>(operation: (suites: Suites) => Promise<T>): Promise<T> {
    const run = this.tail.then(() => this.loaded()).then(operation);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private loaded(): Promise<Suites> {
    this.suites ??= this.store.then((store) => store.load()).then(parseStored, () => new Map());
    return this.suites;
  }
}

/** The stored document, or nothing when it is missing or unreadable (a store written by hand). */
function parseStored(json: string | null | undefined): Suites {
  const suites: Suites = new Map();
  if (!json) return suites;
  try {
    const groups = JSON.parse(json) as unknown;
    if (!Array.isArray(groups)) return suites;
    for (const group of groups as Partial<UserDefaultsGroup>[]) {
      if (typeof group?.name !== 'string' || !Array.isArray(group.entries)) continue;
      const entries = suites.get(group.name) ?? new Map<string, UserDefaultValue>();
      for (const entry of group.entries) if (typeof entry?.key === 'string') entries.set(entry.key, entry.value ?? null);
      if (entries.size > 0) suites.set(group.name, entries);
    }
  } catch {
    // an unreadable document counts as empty; the next write replaces it
  }
  return suites;
}

const groupsOf = (suites: Suites): UserDefaultsGroup[] =>
  [...suites].map(([name, entries]) => ({ name, entries: [...entries].map(([key, value]) => ({ key, value: copy(value)! })) }));

const copy = <T extends UserDefaultValue | undefined>(value: T): T => (value === undefined ? value : structuredCopy(value));
const structuredCopy = <T,>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function checkName(value: unknown, what: string, max: number): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new Error(`The ${what} must be 1 to ${max} characters`);
}

/** A copy of the value as JSON keeps it; anything JSON cannot hold (a function, a BigInt, a cycle) is refused. */
function storable(value: unknown): UserDefaultValue {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new Error(`The value cannot be stored as JSON (${String(error)})`, { cause: error });
  }
  if (json === undefined) throw new Error('The value cannot be stored as JSON');
  if (json.length > USER_DEFAULTS_LIMITS.maxValueLength) throw new Error(`A value may hold at most ${USER_DEFAULTS_LIMITS.maxValueLength} characters of JSON`);
  return JSON.parse(json) as UserDefaultValue;
}

function readOperation(args: unknown): UserDefaultsOperation {
  const given = (args ?? {}) as Record<string, unknown>;
  switch (given.op) {
    case 'list':
      return { op: 'list' };
    case 'set':
      return { op: 'set', name: given.name as string, key: given.key as string, value: given.value as UserDefaultValue };
    case 'rename':
      return { op: 'rename', name: given.name as string, oldKey: given.oldKey as string, newKey: given.newKey as string, value: given.value as UserDefaultValue };
    case 'remove':
      return { op: 'remove', name: given.name as string, key: given.key as string };
    default:
      throw new Error(`Unknown user defaults operation: ${String(given.op)}`);
  }
}
