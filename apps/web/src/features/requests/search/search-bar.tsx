import { defaultDateRangeInputs, isPowerTag, unknownFilterKeys, type SearchTag } from '@spyglass/protocol';
import { CalendarRange, CircleAlert, RotateCcw, Search, X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';
import { IconButton } from '../../../ui/button';
import type { ListStore } from '../store/list-store';
import { barSuggestions } from './bar-suggestions';
import { fieldValuesOf } from './field-values';
import { FilterHelp } from './filter-help';
import { fitTags } from './tag-fit';
import { pickAction, searchKeyDown, type BarSuggestion } from './search-keys';
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
    () => (state.suggestionsOpen ? barSuggestions(values, state.input, state.caseSensitive) : []),
    // valuesVersion stands for the content of `values`, which is one object for the store's life.
    [values, valuesVersion, state.suggestionsOpen, state.input, state.caseSensitive],
  );
  const open = state.suggestionsOpen && suggestions.length > 0;
  const highlighted = open && active >= 0 && active < suggestions.length ? active : -1;
  const hasSearch = state.tags.length > 0 || state.input !== '';
  useEffect(() => {
    if (highlighted >= 0) document.getElementById(`${listboxId}-${highlighted}`)?.scrollIntoView({ block: 'nearest' });
  }, [listboxId, highlighted]);
  // The dropdown is a manual popover: in the top layer it may be wider than the field (full key
  // names and values) without being clipped by the scrolling panel the toolbar sits in.
  const listboxRef = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const listbox = listboxRef.current;
    if (!listbox || listbox.matches(':popover-open') === open) return;
    if (open) listbox.showPopover();
    else listbox.hidePopover();
  }, [open]);

  // The field keeps the toolbar's one row: at rest it shows the tags that fit and a '+N' chip for
  // the others; focused (anything in it), it grows over the list below and shows them all, its
  // place in the toolbar keeping its height.
  const fieldRef = useRef<HTMLDivElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [shownTags, setShownTags] = useState(Number.POSITIVE_INFINITY);
  useLayoutEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    const measure = () => {
      // Each tag at its own width first: the first one may have been cut to fit beside the chip.
      delete field.dataset.cutFirst;
      if (expanded) return;
      const tags = [...field.querySelectorAll<HTMLElement>('.search-tag')];
      const style = getComputedStyle(field);
      const gap = parseFloat(style.columnGap) || 0;
      // The input keeps a sliver after the tags: a place to click and type, and a visible control.
      const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - INPUT_AT_REST_PX - gap;
      const fit = fitTags(tags.map((tag) => tag.getBoundingClientRect().width), room, gap, MORE_CHIP_PX);
      if (fit.firstMaxWidth !== null) {
        field.style.setProperty('--search-first-tag-max', `${fit.firstMaxWidth}px`);
        field.dataset.cutFirst = '';
      }
      setShownTags(fit.shown);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(field);
    return () => observer.disconnect();
  }, [state.tags, expanded]);
  const hiddenTags = expanded ? [] : state.tags.slice(shownTags);

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

  const pick = (suggestion: BarSuggestion) => {
    dispatch(pickAction(suggestion));
    setActive(-1);
    inputRef.current?.focus();
  };

  return (
    <div className="search-bar" role="search" aria-label="Search requests">
      <div className="search-slot">
        <div
          ref={fieldRef}
          className={expanded ? 'search-field is-expanded' : 'search-field'}
          onFocus={() => setExpanded(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setExpanded(false);
          }}
          onMouseDown={(event) => {
            // A press on a tag or the field's padding types: the buttons and the input keep theirs.
            if ((event.target as Element).closest('button, input, [role="listbox"]')) return;
            event.preventDefault();
            inputRef.current?.focus();
          }}
        >
          <Search size={14} className="search-icon" aria-hidden="true" />
          {state.tags.length > 0 && (
            <ul className="search-tags" aria-label="Search tags">
              {state.tags.map((tag, index) => (
                <li key={`${tag.field}:${tag.negated ? '-' : ''}${tag.value}`} className={tagClass(tag, !expanded && index >= shownTags)} title={tagTitle(tag)}>
                  {tag.error !== undefined && <CircleAlert size={12} className="search-tag-invalid" role="img" aria-label={`Invalid filter: ${tag.error}`} />}
                  {tag.negated && <span className="search-tag-not">not</span>}
                  {!tag.isFreeText && <span className="search-tag-field">{tag.fieldLabel}:</span>}
                  <span className="search-tag-value">{tag.value}</span>
                  <button
                    type="button"
                    className="search-tag-remove"
                    aria-label={`Remove ${tag.display}`}
                    // The focus stays where it is: pressing here must not fold the field under the pointer.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => dispatch({ type: 'removeTag', index })}
                  >
                    <X size={11} aria-hidden="true" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          {hiddenTags.length > 0 && (
            <button
              type="button"
              className="search-more"
              tabIndex={-1}
              aria-label={`Show ${hiddenTags.length} more ${hiddenTags.length === 1 ? 'tag' : 'tags'}: ${hiddenTags.map((tag) => tag.display).join(', ')}`}
              title={hiddenTags.map((tag) => tag.display).join('\n')}
              onMouseDown={(event) => {
                event.preventDefault();
                inputRef.current?.focus();
              }}
            >
              +{hiddenTags.length}
            </button>
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
          <ul ref={listboxRef} id={listboxId} role="listbox" aria-label="Suggestions" className="search-suggestions" popover="manual">
            {open && suggestions.map((suggestion, index) => {
              const line = suggestionLine(suggestion, state.input);
              return (
                <li
                  key={`${suggestion.type}:${line.label}`}
                  id={`${listboxId}-${index}`}
                  role="option"
                  aria-label={line.label}
                  aria-selected={index === highlighted}
                  className="search-suggestion"
                  // Keeps the focus in the input, which would otherwise blur and close the list first.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseMove={() => setActive(index)}
                  onClick={() => pick(suggestion)}
                >
                  <span className="search-suggestion-field">{line.field}</span>
                  <span className="search-suggestion-body">
                    <span className="search-suggestion-value"><Highlighted text={line.value} part={line.typed} caseSensitive={state.caseSensitive} /></span>
                    {line.help && <span className="search-suggestion-help">{line.help}</span>}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
      <FilterHelp />
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

/** Room kept for the '+N' chip and, at rest, the input (search.css gives them these minimum widths). */
const MORE_CHIP_PX = 28;
const INPUT_AT_REST_PX = 12;

function tagClass(tag: SearchTag, overflow: boolean): string {
  const power = isPowerTag(tag);
  return [
    'search-tag',
    tag.isFreeText && 'is-free-text',
    power && 'is-power',
    power && tag.negated && 'is-negated',
    power && tag.error !== undefined && 'is-invalid',
    overflow && 'is-overflow',
  ].filter(Boolean).join(' ');
}

/**
 * The tag's tooltip: its whole text (a long one is cut short), why an invalid filter filters
 * nothing, or that a `word:` naming no filter was searched as text.
 */
function tagTitle(tag: SearchTag): string {
  if (tag.error !== undefined) return `${tag.display}: ${tag.error}`;
  if (!tag.isFreeText) return tag.display;
  const unknown = unknownFilterKeys(tag.value);
  if (unknown.length === 0) return tag.display;
  const names = unknown.map((key) => `${key}:`).join(', ');
  return `${tag.display}\nSearched as text: ${names} ${unknown.length === 1 ? 'is not a filter' : 'are not filters'} (see Search filters)`;
}

/** How a suggestion reads in the dropdown, and the typed part to mark in it. */
function suggestionLine(suggestion: BarSuggestion, input: string): { label: string; field: string; value: string; typed: string; help?: string } {
  const lastWord = /\S*$/.exec(input)![0];
  if (suggestion.type === 'key') {
    const word = /\S*$/.exec(suggestion.input)![0];
    return { label: word, field: 'Filter', value: word, typed: lastWord, help: suggestion.help };
  }
  const tag = suggestion.tag;
  if (isPowerTag(tag)) return { label: tag.display, field: `${tag.negated ? '-' : ''}${tag.fieldLabel}:`, value: tag.value, typed: lastWord.slice(lastWord.indexOf(':') + 1) };
  return { label: tag.display, field: tag.fieldLabel, value: tag.value, typed: input.trim() };
}

/** The suggestion with the typed part marked. */
function Highlighted({ text, part, caseSensitive }: { text: string; part: string; caseSensitive: boolean }) {
  const at = part === '' ? -1 : (caseSensitive ? text : text.toLowerCase()).indexOf(caseSensitive ? part : part.toLowerCase());
  if (at < 0) return <>{text}</>;
  return <>{text.slice(0, at)}<mark>{text.slice(at, at + part.length)}</mark>{text.slice(at + part.length)}</>;
}
