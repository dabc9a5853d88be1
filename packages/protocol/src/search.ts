/**
 * The search bar of the captured-item list (spec 001 'Search bar', §3 searchable fields and search
 * tags, §4 'Search'): tags, their state transitions, suggestions from the values seen in the data,
 * and the filter the bar stands for.
 */
import { z } from 'zod';
import { dateRangeFilter, defaultDateRangeInputs, responseMimeType, urlHost, type ItemCategory, type ItemFilter } from './filters';
import type { CompactItem } from './items';
import { isPowerTag, parseQuery, powerTag, powerTagFilter, type PowerValueSource } from './power-filters';

// The power filters are part of the search bar's language: exported with it.
export * from './power-filters';

/** Spec 001 §3 'Searchable fields', in the order the suggestions list them. */
export const SEARCHABLE_FIELDS = [
  { field: 'type', label: 'Type', path: 'type' },
  { field: 'level', label: 'Level', path: 'level' },
  { field: 'createdAt', label: 'Created At', path: 'createdAt' },
  { field: 'url', label: 'URL', path: 'details.request.url' },
  { field: 'method', label: 'Method', path: 'details.request.method' },
  { field: 'statusCode', label: 'Status Code', path: 'details.response.statusCode' },
] as const;
export type SearchableField = (typeof SEARCHABLE_FIELDS)[number]['field'];

export const FREE_TEXT_FIELD = 'text';

/** Spec 001 §3 'Search tag'. */
export const SearchTag = z.object({
  field: z.string().max(100),
  fieldLabel: z.string().max(100),
  /** Dotted path the value is looked up at; empty for free text. */
  path: z.string().max(200),
  value: z.string().max(10_000),
  display: z.string().max(10_200),
  isFreeText: z.boolean(),
  /** Power filters (power-filters.ts): a leading `-` excludes what the filter matches. */
  negated: z.boolean().optional(),
  /** Power filters: why the value cannot be read. The tag is shown as invalid and filters nothing. */
  error: z.string().max(500).optional(),
});
export type SearchTag = z.infer<typeof SearchTag>;

export function freeTextTag(value: string): SearchTag {
  return { field: FREE_TEXT_FIELD, fieldLabel: 'Text', path: '', value, display: value, isFreeText: true };
}

export function fieldTag(field: SearchableField, value: string): SearchTag {
  const def = SEARCHABLE_FIELDS.find((f) => f.field === field)!;
  return { field, fieldLabel: def.label, path: def.path, value, display: `${def.label}: ${value}`, isFreeText: false };
}

export interface DateRangeState {
  enabled: boolean;
  /** datetime-local values of the two inputs. */
  from: string;
  to: string;
}

export interface SearchState {
  /** Committed tags. */
  tags: SearchTag[];
  /** What is being typed; while not empty it acts as one more free-text tag. */
  input: string;
  /** The Aa toggle. */
  caseSensitive: boolean;
  suggestionsOpen: boolean;
  dateRange: DateRangeState;
}

export function initialSearchState(now = Date.now()): SearchState {
  return { tags: [], input: '', caseSensitive: false, suggestionsOpen: false, dateRange: { enabled: false, ...defaultDateRangeInputs(now) } };
}

export type SearchAction =
  | { type: 'input'; value: string }
  /** Enter. */
  | { type: 'commit' }
  /** Backspace; removes the last tag only when the input is empty. */
  | { type: 'backspace' }
  | { type: 'pick'; suggestion: SearchTag }
  /** A power-filter key picked from the suggestions: the input becomes `value`, suggestions stay open. */
  | { type: 'complete'; value: string }
  | { type: 'removeTag'; index: number }
  /** Escape hides the suggestions. */
  | { type: 'escape' }
  /** The clear button and 'Clear Search'. */
  | { type: 'clear' }
  | { type: 'toggleCaseSensitive' }
  | { type: 'toggleDateRange' }
  | { type: 'setDateRange'; from?: string; to?: string }
  /** The reset button: back to the last 3 days through now. */
  | { type: 'resetDateRange'; now?: number };

const sameTag = (a: SearchTag, b: SearchTag) => a.isFreeText === b.isFreeText && a.path === b.path && a.value === b.value;
const withTag = (tags: SearchTag[], tag: SearchTag) => (tags.some((t) => sameTag(t, tag)) ? tags : [...tags, tag]);

/** The tags of typed text: one per power filter, then the rest as one free-text tag. */
export function typedTags(input: string): SearchTag[] {
  const { filters, text } = parseQuery(input);
  const tags = filters.map(powerTag);
  return text === '' ? tags : [...tags, freeTextTag(text)];
}

const withTags = (tags: SearchTag[], added: SearchTag[]) => added.reduce(withTag, tags);

/** The input without its last word: what stays when a power-filter suggestion replaces that word. */
const withoutLastWord = (input: string) => input.replace(/\S+\s*$/, '');

/** The transitions of spec 001 §4 'Search', as a reducer (React `useReducer` or any store). */
export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'input':
      return { ...state, input: action.value, suggestionsOpen: true };
    case 'commit': {
      const value = state.input.trim();
      if (value === '') return { ...state, input: '', suggestionsOpen: false };
      return { ...state, tags: withTags(state.tags, typedTags(value)), input: '', suggestionsOpen: false };
    }
    case 'backspace':
      if (state.input !== '' || state.tags.length === 0) return state;
      return { ...state, tags: state.tags.slice(0, -1) };
    case 'pick':
      // A field suggestion replaces the free-text tag being typed; a power filter replaces the
      // word being typed, and the words before it are committed with it.
      if (isPowerTag(action.suggestion)) {
        const tags = withTags(state.tags, typedTags(withoutLastWord(state.input)));
        return { ...state, tags: withTag(tags, action.suggestion), input: '', suggestionsOpen: false };
      }
      return { ...state, tags: withTag(state.tags, action.suggestion), input: '', suggestionsOpen: false };
    case 'complete':
      return { ...state, input: action.value, suggestionsOpen: true };
    case 'removeTag':
      return { ...state, tags: state.tags.filter((_, i) => i !== action.index) };
    case 'escape':
      return state.suggestionsOpen ? { ...state, suggestionsOpen: false } : state;
    case 'clear':
      return { ...state, tags: [], input: '', suggestionsOpen: false };
    case 'toggleCaseSensitive':
      return { ...state, caseSensitive: !state.caseSensitive };
    case 'toggleDateRange':
      return { ...state, dateRange: { ...state.dateRange, enabled: !state.dateRange.enabled } };
    case 'setDateRange':
      return { ...state, dateRange: { ...state.dateRange, from: action.from ?? state.dateRange.from, to: action.to ?? state.dateRange.to } };
    case 'resetDateRange':
      return { ...state, dateRange: { ...state.dateRange, ...defaultDateRangeInputs(action.now) } };
  }
}

/** The tags the search uses now: the committed ones and the text being typed. */
export function activeTags(state: Pick<SearchState, 'tags' | 'input'>): SearchTag[] {
  return withTags(state.tags, typedTags(state.input));
}

/** The filter of one tag; null for an invalid power filter, which filters nothing. */
export function tagFilter(tag: SearchTag, caseSensitive: boolean): ItemFilter | null {
  if (isPowerTag(tag)) return powerTagFilter(tag, caseSensitive);
  if (tag.isFreeText || tag.path === '') return { type: 'text', value: tag.value, caseSensitive };
  return { type: 'field', path: tag.path, value: tag.value, caseSensitive, label: tag.fieldLabel };
}

/** The filter the search bar stands for: every tag and, when shown, the date range. */
export function searchFilter(state: SearchState): ItemFilter {
  const filters = activeTags(state).flatMap((tag) => tagFilter(tag, state.caseSensitive) ?? []);
  if (state.dateRange.enabled) filters.push(dateRangeFilter(state.dateRange.from, state.dateRange.to));
  return { type: 'all', filters };
}

/** The whole list filter: the filter bar's category and the search bar. Every part must match. */
export function listFilter(category: ItemCategory, search: SearchState): ItemFilter {
  return { type: 'all', filters: [{ type: 'category', category }, searchFilter(search)] };
}

/** Distinct values kept per field: URLs are near-unique, and suggestions need only the common ones. */
const MAX_VALUES_PER_FIELD = 5000;

/** The suggestion value of a field: URLs without query or fragment, dates of createdAt. */
function suggestionValue(field: SearchableField, item: CompactItem): string | null {
  switch (field) {
    case 'type': return item.type;
    case 'level': return item.level;
    case 'createdAt': return item.createdAt.slice(0, 10);
    case 'url': {
      if (item.type !== 'network') return null;
      const url = item.details.request.url;
      const cut = url.search(/[?#]/);
      return cut === -1 ? url : url.slice(0, cut);
    }
    case 'method': return item.type === 'network' ? item.details.request.method : null;
    case 'statusCode': {
      const code = item.type === 'network' ? item.details.response?.statusCode : undefined;
      return code === undefined ? null : String(code);
    }
  }
}

export interface SuggestOptions {
  caseSensitive?: boolean;
  /** Values per field (default 3). */
  perField?: number;
  /** Suggestions in all (default 12). */
  limit?: number;
}

/** Fields kept only for the power filters' suggestions (`domain:`, `mime-type:`). */
const POWER_VALUE_FIELDS = ['domain', 'mimeType'] as const;
type IndexedField = SearchableField | (typeof POWER_VALUE_FIELDS)[number];
const INDEXED_FIELDS: readonly IndexedField[] = [...SEARCHABLE_FIELDS.map((f) => f.field), ...POWER_VALUE_FIELDS];

function indexedValue(field: IndexedField, item: CompactItem): string | null {
  if (field === 'domain') return item.type === 'network' ? urlHost(item.details.request.url) : null;
  if (field === 'mimeType') return responseMimeType(item);
  return suggestionValue(field, item);
}

/**
 * The values seen in the data for each searchable field (and the hosts and content types the
 * power filters suggest), with how often each was seen. Fed incrementally as items arrive;
 * answers the suggestions dropdown.
 */
export class FieldValueIndex implements PowerValueSource {
  private readonly values = new Map<IndexedField, Map<string, number>>(INDEXED_FIELDS.map((f) => [f, new Map()]));

  add(item: CompactItem): void {
    for (const field of INDEXED_FIELDS) {
      const value = indexedValue(field, item);
      if (value === null || value === '') continue;
      const counts = this.values.get(field)!;
      const seen = counts.get(value);
      if (seen !== undefined) counts.set(value, seen + 1);
      else if (counts.size < MAX_VALUES_PER_FIELD) counts.set(value, 1);
    }
  }

  addAll(items: Iterable<CompactItem>): void {
    for (const item of items) this.add(item);
  }

  remove(item: CompactItem): void {
    for (const field of INDEXED_FIELDS) {
      const value = indexedValue(field, item);
      if (value === null) continue;
      const counts = this.values.get(field)!;
      const seen = counts.get(value);
      if (seen === undefined) continue;
      if (seen <= 1) counts.delete(value);
      else counts.set(value, seen - 1);
    }
  }

  clear(): void {
    for (const counts of this.values.values()) counts.clear();
  }

  /** Values seen for a field (or a power filter's key), most frequent first. */
  valuesOf(field: SearchableField | 'status-code' | 'domain' | 'mime-type'): string[] {
    const indexed: IndexedField = field === 'status-code' ? 'statusCode' : field === 'mime-type' ? 'mimeType' : field;
    return [...this.values.get(indexed)!.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([v]) => v);
  }

  /**
   * Suggestions for what is typed: per field in the order of spec 001 §3, values equal to the
   * input first, then starting with it, then containing it, the more frequent first.
   */
  suggest(input: string, options: SuggestOptions = {}): SearchTag[] {
    const caseSensitive = options.caseSensitive ?? false;
    const perField = options.perField ?? 3;
    const limit = options.limit ?? 12;
    const needle = caseSensitive ? input.trim() : input.trim().toLowerCase();
    const out: SearchTag[] = [];
    for (const { field } of SEARCHABLE_FIELDS) {
      const ranked: Array<{ value: string; rank: number; count: number }> = [];
      for (const [value, count] of this.values.get(field)!) {
        const hay = caseSensitive ? value : value.toLowerCase();
        const at = hay.indexOf(needle);
        if (at === -1) continue;
        ranked.push({ value, rank: hay.length === needle.length ? 0 : at === 0 ? 1 : 2, count });
      }
      ranked.sort((a, b) => a.rank - b.rank || b.count - a.count || (a.value < b.value ? -1 : 1));
      for (const r of ranked.slice(0, perField)) out.push(fieldTag(field, r.value));
      if (out.length >= limit) break;
    }
    return out.slice(0, limit);
  }
}
