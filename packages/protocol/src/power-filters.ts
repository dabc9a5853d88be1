/**
 * Power filters of the search bar: the `key:value` language users know from Chrome DevTools'
 * network filter and HTTP Toolkit (`status-code:404`, `status:>=400`, `method:POST`,
 * `domain:*.example.com`, `url:/api/health` (DevTools' `url:`, a part of the URL), `larger-than:100k`,
 * `duration:>500`, `mime-type:image/*`, `is:mocked`, `is:pending`, a leading `-` to negate,
 * `/regex/`). Parsing never throws: a token that names a filter key with a value that cannot be
 * read becomes an invalid tag, shown as such and ignored by the search.
 *
 * A `word:value` whose word names no filter stays free text, as in DevTools: the list holds logs and
 * events too, where `localhost:8080`, `userId:42` or a pasted `TypeError: …` are text to look for,
 * and an invalid tag would drop them from the search. `unknownFilterKeys` names such words, so the
 * bar can say the text was not read as a filter.
 */
import type { ItemFilter } from './filters';
import type { SearchTag } from './search';

export type Comparison = '=' | '<' | '<=' | '>' | '>=';
export type NumericField = 'status' | 'duration' | 'size';
export type GlobField = 'method' | 'domain' | 'url' | 'mimeType';
export type ItemState = 'mocked' | 'pending';

/** The keys, in the order the help and the suggestions list them. */
export const POWER_FILTER_KEYS = [
  { key: 'status-code', example: 'status-code:404', help: 'Status code: 404, >=400, 4xx or 400-499' },
  { key: 'method', example: 'method:POST', help: 'HTTP method' },
  { key: 'domain', example: 'domain:*.example.com', help: 'Host of the URL; * matches any part' },
  { key: 'url', example: 'url:/api/health', help: 'Part of the URL; * matches any part' },
  { key: 'larger-than', example: 'larger-than:100k', help: 'Size above a number of bytes (k, m)' },
  { key: 'duration', example: 'duration:>500', help: 'Duration in ms (or s): >500, <1s, 200-800' },
  { key: 'mime-type', example: 'mime-type:image/*', help: 'Response content type' },
  { key: 'is', example: 'is:mocked', help: 'is:mocked or is:pending' },
] as const;
export type PowerFilterKey = (typeof POWER_FILTER_KEYS)[number]['key'];

/** Other spellings of a key (HTTP Toolkit's `status`). */
const KEY_ALIASES: Readonly<Record<string, PowerFilterKey>> = { status: 'status-code' };

/** The two lines of the help popover that are not keys. */
export const POWER_FILTER_SYNTAX = [
  { example: '-method:GET', help: 'A leading - excludes what the filter matches' },
  { example: '/api\\/v[12]/', help: 'Regular expression on the URL (other items: their summary)' },
] as const;

export const IS_STATES: readonly ItemState[] = ['mocked', 'pending'];

export function powerFilterKey(name: string): PowerFilterKey | null {
  const lower = name.toLowerCase();
  if (lower in KEY_ALIASES) return KEY_ALIASES[lower]!;
  return POWER_FILTER_KEYS.find((k) => k.key === lower)?.key ?? null;
}

const KEY_TOKEN = /^(-?)([A-Za-z][A-Za-z-]*):(.*)$/s;
// After the closing slash only letters JavaScript knows as flags: `/api/cart` is a URL path, free text.
const REGEX_TOKEN = /^(-?)\/(.+)\/([dgimsuvy]*)$/s;
const REGEX_FLAGS = /^[imsu]*$/;
const MAX_REGEX_SOURCE = 1000;

export type ParsedToken =
  | { kind: 'text'; text: string }
  | { kind: 'filter'; key: PowerFilterKey | 'regex'; negated: boolean; value: string; raw: string; filter: ItemFilter | null; error: string | null };

/** A numeric condition read from a value: one comparison or an inclusive range. */
type NumberCondition = { op: Comparison; value: number } | { min: number; max: number };

const COMPARISON = /^(>=|<=|>|<|=)?\s*(.+)$/;

function readNumberCondition(value: string, readNumber: (text: string) => number | null, bareOp: Comparison): NumberCondition | string {
  const range = /^([^<>=-][^-]*)-([^-]+)$/.exec(value);
  if (range) {
    const min = readNumber(range[1]!);
    const max = readNumber(range[2]!);
    if (min === null || max === null) return `'${value}' is not a range of numbers`;
    if (min > max) return `The range ${value} is empty`;
    return { min, max };
  }
  const m = COMPARISON.exec(value)!;
  const n = readNumber(m[2]!);
  if (n === null) return `'${value}' is not a number`;
  return { op: (m[1] as Comparison | undefined) ?? bareOp, value: n };
}

function numberFilter(field: NumericField, condition: NumberCondition): ItemFilter {
  if ('op' in condition) return { type: 'compare', field, op: condition.op, value: condition.value };
  return {
    type: 'all',
    filters: [
      { type: 'compare', field, op: '>=', value: condition.min },
      { type: 'compare', field, op: '<=', value: condition.max },
    ],
  };
}

function readStatus(text: string): number | null {
  const t = text.trim();
  return /^\d{1,3}$/.test(t) ? Number(t) : null;
}

/** Bytes: `1500`, `100k`, `1.5m` (k and m are 1024-based, as the Size column shows KB and MB). */
export function readSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(b|k|kb|m|mb|g|gb)?$/i.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? 'b').toLowerCase()[0]!;
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Math.round(Number(m[1]) * factor);
}

/** Milliseconds: `500`, `500ms`, `1.5s`, `2m` (minutes). */
export function readDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min)?$/i.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? 'ms').toLowerCase();
  const factor = unit === 's' ? 1000 : unit === 'm' || unit === 'min' ? 60_000 : 1;
  return Number(m[1]) * factor;
}

function statusFilter(value: string): ItemFilter | string {
  const klass = /^([1-5])xx$/i.exec(value);
  if (klass) return numberFilter('status', { min: Number(klass[1]) * 100, max: Number(klass[1]) * 100 + 99 });
  const condition = readNumberCondition(value, readStatus, '=');
  return typeof condition === 'string' ? condition : numberFilter('status', condition);
}

function globFilter(field: GlobField, value: string, what: string): ItemFilter | string {
  if (/\s/.test(value)) return `A ${what} has no spaces`;
  return { type: 'glob', field, pattern: value.toLowerCase() };
}

function keyFilter(key: PowerFilterKey, value: string): ItemFilter | string {
  switch (key) {
    case 'status-code':
      return statusFilter(value);
    case 'method':
      if (!/^[A-Za-z*]+$/.test(value)) return `'${value}' is not an HTTP method`;
      return globFilter('method', value, 'method');
    case 'domain':
      return globFilter('domain', value, 'domain');
    case 'url':
      return globFilter('url', value, 'URL');
    case 'mime-type':
      return globFilter('mimeType', value, 'content type');
    case 'larger-than': {
      const size = readSize(value);
      return size === null ? `'${value}' is not a size (e.g. 1500, 100k, 2m)` : { type: 'compare', field: 'size', op: '>', value: size };
    }
    case 'duration': {
      // A bare number reads as 'at least': nobody looks for requests of exactly 500 ms.
      const condition = readNumberCondition(value, readDuration, '>=');
      return typeof condition === 'string' ? condition : numberFilter('duration', condition);
    }
    case 'is': {
      const state = value.toLowerCase();
      return (IS_STATES as readonly string[]).includes(state) ? { type: 'is', state: state as ItemState } : `is: takes ${IS_STATES.join(' or ')}`;
    }
  }
}

function regexFilter(source: string, flags: string): ItemFilter | string {
  if (source.length > MAX_REGEX_SOURCE) return `A regular expression has at most ${MAX_REGEX_SOURCE} characters`;
  if (!REGEX_FLAGS.test(flags)) return `Unknown regular expression flags '${flags}'`;
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `Invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  return { type: 'regex', source, flags };
}

/** Reads one whitespace-free token: a power filter (maybe invalid) or plain text. */
export function parseToken(raw: string): ParsedToken {
  const regex = REGEX_TOKEN.exec(raw);
  if (regex) {
    const negated = regex[1] === '-';
    const result = regexFilter(regex[2]!, regex[3]!);
    const value = `/${regex[2]}/${regex[3]}`;
    return typeof result === 'string'
      ? { kind: 'filter', key: 'regex', negated, value, raw, filter: null, error: result }
      : { kind: 'filter', key: 'regex', negated, value, raw, filter: negated ? { type: 'not', filter: result } : result, error: null };
  }
  const m = KEY_TOKEN.exec(raw);
  const key = m ? powerFilterKey(m[2]!) : null;
  // `http://…` and other `word:` text that names no filter stays free text.
  if (!m || key === null) return { kind: 'text', text: raw };
  const negated = m[1] === '-';
  const value = m[3]!;
  const result = value === '' ? `${key}: needs a value` : keyFilter(key, value);
  if (typeof result === 'string') return { kind: 'filter', key, negated, value, raw, filter: null, error: result };
  return { kind: 'filter', key, negated, value, raw, filter: negated ? { type: 'not', filter: result } : result, error: null };
}

/**
 * The words of free text written like a filter whose key names none (`url:` before it was one,
 * `host:x`), lower-cased: searched as text, which the bar tells in the tag's title. `http://…`
 * and other values starting with `/` are not counted, nor a word with nothing after the colon.
 */
export function unknownFilterKeys(text: string): string[] {
  const keys: string[] = [];
  for (const word of text.trim().split(/\s+/)) {
    const m = KEY_TOKEN.exec(word);
    if (!m || m[3] === '' || m[3]!.startsWith('//') || powerFilterKey(m[2]!) !== null) continue;
    const key = m[2]!.toLowerCase();
    if (!keys.includes(key)) keys.push(key);
  }
  return keys;
}

export interface ParsedQuery {
  /** The power filters, in the order typed. */
  filters: Array<Extract<ParsedToken, { kind: 'filter' }>>;
  /** What is left once the filters are taken out, as free text ('' for none). */
  text: string;
}

/**
 * Splits what was typed into power filters and free text. Without any filter token the text is
 * kept exactly as typed (a free-text search for `a  b` keeps its two spaces).
 */
export function parseQuery(input: string): ParsedQuery {
  const trimmed = input.trim();
  if (trimmed === '') return { filters: [], text: '' };
  const tokens = trimmed.split(/\s+/).map(parseToken);
  const filters = tokens.filter((t): t is Extract<ParsedToken, { kind: 'filter' }> => t.kind === 'filter');
  if (filters.length === 0) return { filters, text: trimmed };
  const text = tokens.flatMap((t) => (t.kind === 'text' ? [t.text] : [])).join(' ');
  return { filters, text };
}

/** Tag fields of power filters: `field` is this prefix and the key, so they never meet field tags. */
export const POWER_FIELD_PREFIX = 'power:';

export function powerTag(token: Extract<ParsedToken, { kind: 'filter' }>): SearchTag {
  const label = token.key === 'regex' ? 'regex' : token.key;
  return {
    field: `${POWER_FIELD_PREFIX}${token.key}`,
    fieldLabel: label,
    path: '',
    value: token.value,
    display: token.raw,
    isFreeText: false,
    negated: token.negated,
    ...(token.error !== null ? { error: token.error } : {}),
  };
}

export function isPowerTag(tag: SearchTag): boolean {
  return tag.field.startsWith(POWER_FIELD_PREFIX);
}

/**
 * The filter of a power tag, or null for an invalid one (which the search ignores). Aa makes a
 * regular expression case-sensitive; the other keys never are (methods, hosts and types are not).
 */
export function powerTagFilter(tag: SearchTag, caseSensitive: boolean): ItemFilter | null {
  const token = parseToken(tag.display);
  if (token.kind !== 'filter' || token.filter === null) return null;
  if (token.key !== 'regex' || caseSensitive) return token.filter;
  const withI = (f: ItemFilter): ItemFilter => {
    if (f.type === 'not') return { type: 'not', filter: withI(f.filter) };
    if (f.type === 'regex' && !f.flags.includes('i')) return { ...f, flags: `${f.flags}i` };
    return f;
  };
  return withI(token.filter);
}

/** Where a suggestion for the token being typed comes from. */
export interface PowerValueSource {
  /** Values seen for a key, most frequent first (status codes, methods, hosts, content types). */
  valuesOf(key: 'status-code' | 'method' | 'domain' | 'url' | 'mime-type'): readonly string[];
}

export type PowerSuggestion =
  /** Completes the key: the input becomes `input` and the dropdown stays open for its values. */
  | { type: 'key'; key: PowerFilterKey; input: string; help: string }
  /** A whole filter: picking it commits the input with the last token replaced by this tag. */
  | { type: 'value'; tag: SearchTag };

/** Most `url:` searches are for a path: the URLs seen, without scheme and host, in their order. */
function urlPaths(urls: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const url of urls) {
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
    if (path !== '' && path !== '/') paths.add(path);
  }
  return [...paths];
}

const VALUE_HINTS: Readonly<Partial<Record<PowerFilterKey, readonly string[]>>> = {
  'status-code': ['>=400', '5xx'],
  'larger-than': ['10k', '100k', '1m'],
  duration: ['>500', '>1s'],
  is: IS_STATES,
};

/**
 * Suggestions for the last word typed: the keys it starts (`st` → `status-code:`), or for a
 * `key:` the values seen in the data that contain what follows the colon.
 */
export function suggestPowerFilters(input: string, source: PowerValueSource, limit = 8): PowerSuggestion[] {
  const lastSpace = input.search(/\S+$/);
  if (lastSpace === -1) return [];
  const before = input.slice(0, lastSpace);
  const word = input.slice(lastSpace);
  const negated = word.startsWith('-');
  const bare = negated ? word.slice(1) : word;
  const colon = bare.indexOf(':');
  if (colon === -1) {
    if (bare.length === 0) return [];
    const lower = bare.toLowerCase();
    return POWER_FILTER_KEYS
      .filter((k) => k.key.startsWith(lower) || Object.entries(KEY_ALIASES).some(([alias, to]) => to === k.key && alias.startsWith(lower)))
      .map((k) => ({ type: 'key' as const, key: k.key, input: `${before}${negated ? '-' : ''}${k.key}:`, help: k.help }))
      .slice(0, limit);
  }
  const key = powerFilterKey(bare.slice(0, colon));
  if (key === null) return [];
  const typed = bare.slice(colon + 1).toLowerCase();
  const seen = key === 'url' ? urlPaths(source.valuesOf('url'))
    : key === 'status-code' || key === 'method' || key === 'domain' || key === 'mime-type' ? source.valuesOf(key) : [];
  const candidates = [...new Set([...(VALUE_HINTS[key] ?? []), ...seen])];
  const out: PowerSuggestion[] = [];
  for (const value of candidates) {
    if (typed !== '' && !value.toLowerCase().includes(typed)) continue;
    const token = parseToken(`${negated ? '-' : ''}${key}:${value}`);
    if (token.kind === 'filter' && token.error === null) out.push({ type: 'value', tag: powerTag(token) });
    if (out.length >= limit) break;
  }
  return out;
}
