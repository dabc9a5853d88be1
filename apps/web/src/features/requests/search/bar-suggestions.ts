import { suggestPowerFilters } from '@spyglass/protocol';
import type { StoreFieldValues } from './field-values';
import type { BarSuggestion } from './search-keys';

/** Lines the dropdown shows at most. */
const MAX_SUGGESTIONS = 12;

/**
 * The dropdown for what is typed: power filters for the last word (its keys, or the values seen
 * for a `key:`), then the field values that contain the whole input (spec 001 §3).
 */
export function barSuggestions(values: StoreFieldValues, input: string, caseSensitive: boolean): BarSuggestion[] {
  const power = suggestPowerFilters(input, values);
  // Two values of each of the six fields for an empty input, so that every field shows up.
  const fields = values.suggest(input, { caseSensitive, perField: input.trim() === '' ? 2 : 3 })
    .map((tag): BarSuggestion => ({ type: 'value', tag }));
  return [...power, ...fields].slice(0, MAX_SUGGESTIONS);
}
