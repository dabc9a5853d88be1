import { defaultDateRangeInputs, type SearchTag } from '@spyglass/protocol';
import { CalendarRange, RotateCcw, Search, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { IconButton } from '../../../ui/button';
import type { ListStore } from '../store/list-store';
import { fieldValuesOf } from './field-values';
import { searchKeyDown } from './search-keys';
import type { SearchController } from './use-search';
import './search.css';

export interface SearchBarProps {
  search: SearchController;
  /** The list searched: suggestions offer the values seen in it. */
  store: ListStore;
}

/**
 * The search bar of the request list (spec 001 'Search bar'): free text and field tags,
 * suggestions of the values seen per searchable field, Aa, clear, and the date range.
 */
export function SearchBar({ search, store }: SearchBarProps) {
  const { state, dispatch } = search;
  const inputRef = useRef<HTMLInputElement>(null);
  const listboxId = useId();
  const [active, setActive] = useState(-1);
  const values = fieldValuesOf(store);
  // Followed only while the dropdown is open: values arriving then show in it.
  const valuesVersion = useSyncExternalStore(state.suggestionsOpen ? values.subscribe : ignoreChanges, () => values.version);
  const suggestions = useMemo(
    // Two values of each of the six fields for an empty input, so that every field shows up.
    () => (state.suggestionsOpen ? values.suggest(state.input, { caseSensitive: state.caseSensitive, perField: state.input.trim() === '' ? 2 : 3 }) : []),
    // valuesVersion stands for the content of `values`, which is one object for the store's life.
    [values, valuesVersion, state.suggestionsOpen, state.input, state.caseSensitive],
  );
  const open = state.suggestionsOpen && suggestions.length > 0;
  const highlighted = open && active >= 0 && active < suggestions.length ? active : -1;
  const hasSearch = state.tags.length > 0 || state.input !== '';
  useEffect(() => {
    if (highlighted >= 0) document.getElementById(`${listboxId}-${highlighted}`)?.scrollIntoView({ block: 'nearest' });
  }, [listboxId, highlighted]);

  /** The values of the date inputs as last defaulted: opened untouched, the range moves up to now. */
  const defaults = useRef({ from: state.dateRange.from, to: state.dateRange.to });
  const toggleDateRange = () => {
    const { from, to, enabled } = state.dateRange;
    if (!enabled && from === defaults.current.from && to === defaults.current.to) resetDateRange();
    dispatch({ type: 'toggleDateRange' });
  };
  const resetDateRange = () => {
    const now = Date.now();
    defaults.current = defaultDateRangeInputs(now);
    dispatch({ type: 'resetDateRange', now });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const outcome = searchKeyDown(event.key, state, suggestions, highlighted);
    if (!outcome) return;
    event.preventDefault();
    // The screen's shortcuts (Escape closes the details, Backspace deletes rows) stay out of the bar.
    event.stopPropagation();
    if (outcome.action) dispatch(outcome.action);
    setActive(outcome.active);
  };

  const pick = (suggestion: SearchTag) => {
    dispatch({ type: 'pick', suggestion });
    setActive(-1);
    inputRef.current?.focus();
  };

  return (
    <div className="search-bar" role="search" aria-label="Search requests">
      <div className="search-field" onMouseDown={(event) => {
        if (event.target === event.currentTarget) {
          event.preventDefault();
          inputRef.current?.focus();
        }
      }}>
        <Search size={14} className="search-icon" aria-hidden="true" />
        {state.tags.length > 0 && (
          <ul className="search-tags" aria-label="Search tags">
            {state.tags.map((tag, index) => (
              <li key={`${tag.field}:${tag.value}`} className={tag.isFreeText ? 'search-tag is-free-text' : 'search-tag'}>
                {!tag.isFreeText && <span className="search-tag-field">{tag.fieldLabel}:</span>}
                <span className="search-tag-value">{tag.value}</span>
                <button type="button" className="search-tag-remove" aria-label={`Remove ${tag.display}`} onClick={() => dispatch({ type: 'removeTag', index })}>
                  <X size={11} aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={inputRef}
          className="search-input"
          type="text"
          role="combobox"
          aria-label="Search"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listboxId}
          aria-activedescendant={highlighted >= 0 ? `${listboxId}-${highlighted}` : undefined}
          placeholder={state.tags.length === 0 ? 'Search requests...' : ''}
          spellCheck={false}
          autoComplete="off"
          value={state.input}
          onChange={(event) => {
            dispatch({ type: 'input', value: event.target.value });
            setActive(-1);
          }}
          onFocus={() => {
            if (!state.suggestionsOpen) dispatch({ type: 'input', value: state.input });
          }}
          onBlur={() => {
            if (state.suggestionsOpen) dispatch({ type: 'escape' });
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listboxId} role="listbox" aria-label="Suggestions" className="search-suggestions" hidden={!open}>
          {open && suggestions.map((suggestion, index) => (
            <li
              key={`${suggestion.field}:${suggestion.value}`}
              id={`${listboxId}-${index}`}
              role="option"
              aria-label={suggestion.display}
              aria-selected={index === highlighted}
              className="search-suggestion"
              // Keeps the focus in the input, which would otherwise blur and close the list first.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => pick(suggestion)}
            >
              <span className="search-suggestion-field">{suggestion.fieldLabel}</span>
              <span className="search-suggestion-value"><Highlighted text={suggestion.value} part={state.input.trim()} caseSensitive={state.caseSensitive} /></span>
            </li>
          ))}
        </ul>
      </div>
      <IconButton label="Case sensitive" pressed={state.caseSensitive} className="search-case" onClick={() => dispatch({ type: 'toggleCaseSensitive' })}>
        <span aria-hidden="true">Aa</span>
      </IconButton>
      {hasSearch && (
        <IconButton label="Clear search" onClick={() => dispatch({ type: 'clear' })}>
          <X size={15} aria-hidden="true" />
        </IconButton>
      )}
      <IconButton label="Date range" pressed={state.dateRange.enabled} onClick={toggleDateRange}>
        <CalendarRange size={15} aria-hidden="true" />
      </IconButton>
      {state.dateRange.enabled && (
        <div className="search-date-range" role="group" aria-label="Date range">
          <input
            type="datetime-local"
            className="search-date-input"
            aria-label="From"
            value={state.dateRange.from}
            onChange={(event) => dispatch({ type: 'setDateRange', from: event.target.value })}
          />
          <span className="search-date-to">to</span>
          <input
            type="datetime-local"
            className="search-date-input"
            aria-label="To"
            value={state.dateRange.to}
            onChange={(event) => dispatch({ type: 'setDateRange', to: event.target.value })}
          />
          <IconButton label="Reset date range" onClick={resetDateRange}>
            <RotateCcw size={14} aria-hidden="true" />
          </IconButton>
        </div>
      )}
    </div>
  );
}

const ignoreChanges = () => () => {};

/** The suggestion with the typed part marked. */
function Highlighted({ text, part, caseSensitive }: { text: string; part: string; caseSensitive: boolean }) {
  const at = part === '' ? -1 : (caseSensitive ? text : text.toLowerCase()).indexOf(caseSensitive ? part : part.toLowerCase());
  if (at < 0) return <>{text}</>;
  return <>{text.slice(0, at)}<mark>{text.slice(at, at + part.length)}</mark>{text.slice(at + part.length)}</>;
}
