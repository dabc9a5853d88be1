/**
 * Filters of the captured-item list (spec 001 §5 'Filtering'): plain serializable objects with a
 * pure `matches()` and an `explain()` sentence. The same object is kept in the UI state, can be
 * stored or sent, and is compiled once into a predicate for the hot loop over a million items.
 */
import { z } from 'zod';
import { formatTimestamp, itemStatus, itemSummary } from './format';
import { ITEM_TYPES, type CompactItem } from './items';
import type { Comparison, GlobField, ItemState, NumericField } from './power-filters';
import { ITEM_FILTERS } from './settings';

/** The filter bar (spec 001 'Request list screen'), plus the internal analytics-events filter. */
export const ItemCategory = z.enum(ITEM_FILTERS);
export type ItemCategory = z.infer<typeof ItemCategory>;

export const ITEM_CATEGORY_LABELS: Readonly<Record<ItemCategory, string>> = {
  all: 'All',
  network: 'Network',
  log: 'Logs',
  event: 'Events',
  screenshot: 'Screenshots',
  mocks: 'Mocks',
  firebaseAnalytics: 'Analytics',
};

/** Spec 001 §5 and §9: date inputs default to the last 3 days through now. */
export const DEFAULT_DATE_RANGE_DAYS = 3;

const MAX_FILTER_TEXT = 10_000;

export type ItemFilter =
  | { type: 'category'; category: ItemCategory }
  /** Free text: the whole entry as text, or the item type exactly. */
  | { type: 'text'; value: string; caseSensitive: boolean }
  /** The value at a dotted path (`details.request.url`) contains `value`. `label` names the field for `explain`. */
  | { type: 'field'; path: string; value: string; caseSensitive: boolean; label?: string }
  /** createdAt within [from, to], epoch milliseconds; null leaves that side open. */
  | { type: 'dateRange'; from: number | null; to: number | null }
  /** Every filter must match. */
  | { type: 'all'; filters: ItemFilter[] }
  /** The power filters of the search bar (see power-filters.ts). */
  | { type: 'not'; filter: ItemFilter }
  /** Status code, duration (ms) or size (bytes) compared with a number; items without one never match. */
  | { type: 'compare'; field: NumericField; op: Comparison; value: number }
  /**
   * Method, URL host or response content type matched whole, case-insensitively; `*` matches any
   * run. The URL (`url`) is matched in part, like DevTools' `url:`.
   */
  | { type: 'glob'; field: GlobField; pattern: string }
  | { type: 'is'; state: ItemState }
  /** The URL of a request, the summary of other items, tested with a regular expression. */
  | { type: 'regex'; source: string; flags: string };

export const ItemFilter: z.ZodType<ItemFilter> = z.lazy(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('category'), category: ItemCategory }),
  z.object({ type: z.literal('text'), value: z.string().max(MAX_FILTER_TEXT), caseSensitive: z.boolean() }),
  z.object({
    type: z.literal('field'),
    path: z.string().min(1).max(200),
    value: z.string().max(MAX_FILTER_TEXT),
    caseSensitive: z.boolean(),
    label: z.string().max(100).optional(),
  }),
  z.object({ type: z.literal('dateRange'), from: z.number().nullable(), to: z.number().nullable() }),
  z.object({ type: z.literal('all'), filters: z.array(ItemFilter).max(100) }),
  z.object({ type: z.literal('not'), filter: ItemFilter }),
  z.object({ type: z.literal('compare'), field: z.enum(['status', 'duration', 'size']), op: z.enum(['=', '<', '<=', '>', '>=']), value: z.number() }),
  z.object({ type: z.literal('glob'), field: z.enum(['method', 'domain', 'url', 'mimeType']), pattern: z.string().max(MAX_FILTER_TEXT) }),
  z.object({ type: z.literal('is'), state: z.enum(['mocked', 'pending']) }),
  z.object({ type: z.literal('regex'), source: z.string().max(MAX_FILTER_TEXT), flags: z.string().regex(/^[imsu]*$/) }),
]));

/** `index` is the item's position in the list being filtered (see `SearchTextColumn`). */
export type ItemPredicate = (item: CompactItem, index: number) => boolean;

/**
 * The text free-text search looks in (spec 001 §5: details; for screenshots the name). JSON keeps
 * keys and values and is produced natively, far faster than walking the object in script.
 */
export function itemSearchText(item: CompactItem): string {
  return item.type === 'screenshot' ? JSON.stringify(item.details.name) : JSON.stringify(item.details);
}

/** Where free-text search reads the text of an item (its position in the list is `index`). */
export interface SearchTextSource {
  text(item: CompactItem, caseSensitive: boolean, index: number): string;
}

function buildText(item: CompactItem, caseSensitive: boolean): string {
  return caseSensitive ? itemSearchText(item) : itemSearchText(item).toLowerCase();
}

/**
 * Search texts built on first use and kept per item object: for lists without stable positions.
 * Items are replaced, never mutated, on update, so a replaced item gets a fresh text and the old
 * one is collected with it.
 */
export class SearchTextCache implements SearchTextSource {
  private readonly exact = new WeakMap<object, string>();
  private readonly lower = new WeakMap<object, string>();

  text(item: CompactItem, caseSensitive: boolean): string {
    const cache = caseSensitive ? this.exact : this.lower;
    let text = cache.get(item);
    if (text === undefined) {
      text = buildText(item, caseSensitive);
      cache.set(item, text);
    }
    return text;
  }
}

/**
 * Search texts kept by position, for a store whose items live at stable indexes (slots): a
 * plain array read is several times cheaper than a WeakMap lookup over a million items. The
 * store calls `written` when it puts an item at an index and `invalidate` when it frees one.
 * `written` builds the case-insensitive text (the search bar's default) at once, so its cost is
 * spread over the live batches and history pages as they arrive and the first search finds every
 * text ready; the case-sensitive texts (Aa) are built when first searched.
 */
export class SearchTextColumn implements SearchTextSource {
  private readonly exact: Array<string | undefined> = [];
  private readonly lower: Array<string | undefined> = [];

  text(item: CompactItem, caseSensitive: boolean, index: number): string {
    const column = caseSensitive ? this.exact : this.lower;
    let text = column[index];
    if (text === undefined) {
      text = buildText(item, caseSensitive);
      // Filled up to the index so the array stays densely packed, never sparse.
      while (column.length < index) column.push(undefined);
      column[index] = text;
    }
    return text;
  }

  /** The item at `index` is new or replaced: its case-insensitive text is built now. */
  written(index: number, item: CompactItem): void {
    if (index < this.exact.length) this.exact[index] = undefined;
    while (this.lower.length < index) this.lower.push(undefined);
    this.lower[index] = buildText(item, false);
  }

  invalidate(index: number): void {
    if (index < this.exact.length) this.exact[index] = undefined;
    if (index < this.lower.length) this.lower[index] = undefined;
  }

  clear(): void {
    this.exact.length = 0;
    this.lower.length = 0;
  }

  /** Builds the texts of `items[from, to)` ahead of a search, e.g. while the page is idle. */
  warm(items: ArrayLike<CompactItem>, from: number, to: number, caseSensitive = false): void {
    const end = Math.min(to, items.length);
    for (let i = from; i < end; i++) this.text(items[i]!, caseSensitive, i);
  }
}

export const searchTextCache = new SearchTextCache();

/** The needle as it appears inside JSON text: quotes, backslashes and control characters escaped. */
function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

function splitPath(path: string): string[] {
  return path.split('.').filter((segment) => segment.length > 0);
}

/** The value at a dotted path, or undefined when any step is missing. */
export function valueAtPath(root: unknown, path: string | readonly string[]): unknown {
  const segments = typeof path === 'string' ? splitPath(path) : path;
  let value: unknown = root;
  for (let i = 0; i < segments.length; i++) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segments[i]!];
  }
  return value;
}

function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isMocked(item: CompactItem): boolean {
  return item.isMocked || (item.type === 'network' && item.details.mockedBy !== undefined);
}

/** A network request sent and not yet answered (nor failed): the table shows a waiting timer. */
export function isInFlight(item: CompactItem): boolean {
  return item.type === 'network' && item.status === null && item.details.response === undefined && !item.details.error;
}

/**
 * The host of a URL, lower-cased, without user info or port; '' when there is none. Read by hand:
 * `new URL` costs a microsecond or more, too much for a filter over a million items.
 */
export function urlHost(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme === -1 ? 0 : scheme + 3;
  let end = url.length;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 || c === 63 || c === 35) { // '/', '?', '#'
      end = i;
      break;
    }
  }
  let host = url.slice(start, end);
  const at = host.lastIndexOf('@');
  if (at !== -1) host = host.slice(at + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return (close === -1 ? host : host.slice(0, close + 1)).toLowerCase();
  }
  const colon = host.indexOf(':');
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/** The response's content type without parameters, lower-cased (`application/json`), or null. */
export function responseMimeType(item: CompactItem): string | null {
  if (item.type !== 'network') return null;
  const headers = item.details.response?.headers;
  if (!headers) return null;
  for (const name in headers) {
    if (name.length === 12 && name.toLowerCase() === 'content-type') {
      const value = headers[name]!;
      const semi = value.indexOf(';');
      return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase();
    }
  }
  return null;
}

function numericValue(field: NumericField, item: CompactItem): number | null {
  switch (field) {
    case 'status': return itemStatus(item);
    case 'duration': return item.duration;
    case 'size': return item.size;
  }
}

function globText(field: GlobField, item: CompactItem): string | null {
  if (item.type !== 'network') return null;
  switch (field) {
    case 'method': return item.details.request.method.toLowerCase();
    case 'domain': return urlHost(item.details.request.url);
    case 'url': return item.details.request.url;
    case 'mimeType': return responseMimeType(item);
  }
}

/** A glob as the source of a regular expression: `*` matches any run, the rest is literal. */
function globSource(pattern: string): string {
  return pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
}

/**
 * The test of a glob: whole-text (a plain comparison when it has no `*`), or for the URL a part
 * of it, case-insensitive without lower-casing every URL.
 */
function globTest(field: GlobField, pattern: string): (text: string) => boolean {
  if (field === 'url') {
    const re = new RegExp(globSource(pattern), 'is');
    return (text) => re.test(text);
  }
  const lower = pattern.toLowerCase();
  if (!lower.includes('*')) return (text) => text === lower;
  const re = new RegExp(`^${globSource(lower)}$`, 's');
  return (text) => re.test(text);
}

function compileCompare(field: NumericField, op: Comparison, value: number): ItemPredicate {
  const test: (n: number) => boolean =
    op === '=' ? (n) => n === value : op === '<' ? (n) => n < value : op === '<=' ? (n) => n <= value : op === '>' ? (n) => n > value : (n) => n >= value;
  return (item) => {
    const n = numericValue(field, item);
    return n !== null && test(n);
  };
}

const ALWAYS: ItemPredicate = () => true;
const NEVER: ItemPredicate = () => false;

export interface CompileOptions {
  /** Where free-text search reads item texts; defaults to a cache shared by the page. */
  texts?: SearchTextSource;
}

/** Compiles a filter into a predicate: parse and lower-case once, not once per item. */
export function compileFilter(filter: ItemFilter, options: CompileOptions = {}): ItemPredicate {
  const texts = options.texts ?? searchTextCache;
  switch (filter.type) {
    case 'category': {
      const category = filter.category;
      if (category === 'all') return ALWAYS;
      if (category === 'mocks') return isMocked;
      return (item) => item.type === category;
    }
    case 'text': {
      const caseSensitive = filter.caseSensitive;
      const value = caseSensitive ? filter.value : filter.value.toLowerCase();
      if (value.length === 0) return ALWAYS;
      const needle = jsonEscaped(value);
      const type = ITEM_TYPES.find((t) => (caseSensitive ? t : t.toLowerCase()) === value);
      return (item, index) => item.type === type || texts.text(item, caseSensitive, index).includes(needle);
    }
    case 'field': {
      const segments = splitPath(filter.path);
      const caseSensitive = filter.caseSensitive;
      const needle = caseSensitive ? filter.value : filter.value.toLowerCase();
      return (item) => {
        const text = valueText(valueAtPath(item, segments));
        if (text === null) return false;
        return (caseSensitive ? text : text.toLowerCase()).includes(needle);
      };
    }
    case 'dateRange':
      return compileDateRange(filter.from, filter.to);
    case 'not': {
      const inner = compileFilter(filter.filter, options);
      return (item, index) => !inner(item, index);
    }
    case 'compare':
      return compileCompare(filter.field, filter.op, filter.value);
    case 'glob': {
      const field = filter.field;
      const test = globTest(field, filter.pattern);
      return (item) => {
        const text = globText(field, item);
        return text !== null && test(text);
      };
    }
    case 'is':
      return filter.state === 'mocked' ? isMocked : isInFlight;
    case 'regex': {
      let re: RegExp;
      try {
        // No 'g' or 'y': those make test() remember where it stopped.
        re = new RegExp(filter.source, filter.flags.replace(/[gy]/g, ''));
      } catch {
        return NEVER;
      }
      return (item) => re.test(item.type === 'network' ? item.details.request.url : itemSummary(item));
    }
    case 'all': {
      const parts = filter.filters.map((f) => compileFilter(f, options)).filter((p) => p !== ALWAYS);
      return parts.reduce<ItemPredicate>((acc, next) => (acc === ALWAYS ? next : (item, index) => acc(item, index) && next(item, index)), ALWAYS);
    }
  }
}

/** ISO strings as the server writes them (`2026-11-23T10:00:00.000Z`) compare like their instants. */
function isCanonicalIso(s: string): boolean {
  return s.length === 24 && s.charCodeAt(23) === 90 && s.charCodeAt(10) === 84;
}

const ISO_MIN = Date.parse('0000-01-01T00:00:00.000Z');
const ISO_MAX = Date.parse('9999-12-31T23:59:59.999Z');

function compileDateRange(from: number | null, to: number | null): ItemPredicate {
  if (from === null && to === null) return ALWAYS;
  const lo = from ?? -8.64e15;
  const hi = to ?? 8.64e15;
  if (lo > hi) return () => false;
  // Bounds clamped to years 0000-9999 so that they too have the canonical form.
  const loIso = new Date(Math.min(Math.max(lo, ISO_MIN), ISO_MAX)).toISOString();
  const hiIso = new Date(Math.max(Math.min(hi, ISO_MAX), ISO_MIN)).toISOString();
  return (item) => {
    const c = item.createdAt;
    if (isCanonicalIso(c)) return c >= loIso && c <= hiIso;
    const t = Date.parse(c);
    return t >= lo && t <= hi;
  };
}

/** True when `item` passes `filter`. Compile once with `compileFilter` to test many items. */
export function matches(filter: ItemFilter, item: CompactItem): boolean {
  return compileFilter(filter)(item, -1);
}

const CATEGORY_CLAUSES: Readonly<Record<ItemCategory, string>> = {
  all: 'any type',
  network: 'network requests',
  log: 'logs',
  event: 'events',
  screenshot: 'screenshots',
  mocks: 'mocked requests',
  firebaseAnalytics: 'analytics events',
};

function clause(filter: ItemFilter): string {
  switch (filter.type) {
    case 'category':
      return filter.category === 'all' ? 'any type' : `only ${CATEGORY_CLAUSES[filter.category]}`;
    case 'text':
      return `the entry contains "${filter.value}"${filter.caseSensitive ? ' (case-sensitive)' : ''}`;
    case 'field':
      return `${filter.label ?? filter.path} contains "${filter.value}"${filter.caseSensitive ? ' (case-sensitive)' : ''}`;
    case 'dateRange': {
      const at = (t: number) => formatTimestamp(t, { withDate: true });
      if (filter.from !== null && filter.to !== null) return `created between ${at(filter.from)} and ${at(filter.to)}`;
      if (filter.from !== null) return `created from ${at(filter.from)}`;
      if (filter.to !== null) return `created until ${at(filter.to)}`;
      return 'created at any time';
    }
    case 'all': {
      const parts = filter.filters.map(clause);
      return parts.length === 0 ? 'every item' : parts.join(' and ');
    }
    case 'not':
      return `not (${clause(filter.filter)})`;
    case 'compare': {
      const names: Record<NumericField, string> = { status: 'status code', duration: 'duration (ms)', size: 'size (bytes)' };
      return `${names[filter.field]} ${filter.op} ${filter.value}`;
    }
    case 'glob': {
      if (filter.field === 'url') return `the URL contains "${filter.pattern}"`;
      const names: Record<Exclude<GlobField, 'url'>, string> = { method: 'method', domain: 'domain', mimeType: 'content type' };
      return `${names[filter.field]} is "${filter.pattern}"`;
    }
    case 'is':
      return filter.state === 'mocked' ? 'mocked' : 'still waiting for its response';
    case 'regex':
      return `the URL matches /${filter.source}/${filter.flags}`;
  }
}

/** A sentence saying what the filter lets through, e.g. `Only logs and the entry contains "timeout"`. */
export function explain(filter: ItemFilter): string {
  const text = clause(filter);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type ShouldYield = () => boolean;

/**
 * Appends to `out` the indexes in [from, to) of the items that pass `predicate`, and answers
 * how many it appended. The building block for filtering a large list a slice at a time.
 */
export function filterChunk<T>(items: ArrayLike<T>, from: number, to: number, predicate: (item: T, index: number) => boolean, out: number[]): number {
  const end = Math.min(to, items.length);
  let found = 0;
  for (let i = from; i < end; i++) {
    if (predicate(items[i]!, i)) {
      out.push(i);
      found++;
    }
  }
  return found;
}

/** Items tested between two looks at the clock. */
const YIELD_CHECK_EVERY = 1024;

/**
 * Filters `items[0, length)` in resumable steps so the page never blocks: call `step` from a
 * frame or idle callback until it answers true, then read `indexes`.
 */
export class IncrementalFilter<T = CompactItem> {
  private readonly out: number[] = [];
  private position = 0;
  private readonly end: number;

  constructor(private readonly items: ArrayLike<T>, private readonly predicate: (item: T, index: number) => boolean, length = items.length) {
    this.end = Math.min(length, items.length);
  }

  get done(): boolean {
    return this.position >= this.end;
  }

  /** Share of the items tested so far, 0 to 1. */
  get progress(): number {
    return this.end === 0 ? 1 : this.position / this.end;
  }

  /** Indexes of the matching items, ascending; complete once `done`. */
  get indexes(): readonly number[] {
    return this.out;
  }

  /** Tests items until done (answers true) or until `shouldYield` says the time slice is over. */
  step(shouldYield: ShouldYield = () => false): boolean {
    while (this.position < this.end) {
      const to = Math.min(this.position + YIELD_CHECK_EVERY, this.end);
      filterChunk(this.items, this.position, to, this.predicate, this.out);
      this.position = to;
      if (this.position < this.end && shouldYield()) return false;
    }
    return true;
  }
}

/** datetime-local value (`2026-11-23T14:05`) of an instant, in the viewer's time zone. */
export function toDateTimeLocal(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The instant of a datetime-local value, or null when it is empty or invalid. */
export function parseDateTimeLocal(value: string): number | null {
  const m = /^(\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), Number((ms ?? '0').padEnd(3, '0')));
  if (date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) return null;
  return date.getTime();
}

/** The two inputs of the date range as they open: the last 3 days through now. */
export function defaultDateRangeInputs(now = Date.now()): { from: string; to: string } {
  return { from: toDateTimeLocal(now - DEFAULT_DATE_RANGE_DAYS * 24 * 60 * 60 * 1000), to: toDateTimeLocal(now) };
}

/**
 * The date-range filter of two datetime-local inputs. The inputs have minute precision, so `to`
 * covers its whole minute: the item captured at 14:05:30 is within "until 14:05".
 */
export function dateRangeFilter(fromInput: string, toInput: string): Extract<ItemFilter, { type: 'dateRange' }> {
  const from = parseDateTimeLocal(fromInput);
  const to = parseDateTimeLocal(toInput);
  const minuteOnly = /T\d{2}:\d{2}$/.test(toInput.trim());
  return { type: 'dateRange', from, to: to === null ? null : minuteOnly ? to + 59_999 : to };
}
