import type { KeyboardEvent, Ref } from 'react';
import { NO_FILTER, isFiltering, type DateFilter, type RowFilter, type SourceFilter } from '../../model/filter-rows';

export interface SearchBarProps {
  filter: RowFilter;
  branches: readonly string[];
  onChange: (filter: RowFilter) => void;
  /** ↓ from the search box moves into the list. */
  onEnterList: () => void;
  inputRef: Ref<HTMLInputElement>;
  shown: number;
  total: number;
}

const SOURCES: Array<[SourceFilter, string]> = [
  ['all', 'All sources'],
  ['baton', 'Baton'],
  ['claude', 'Claude Code'],
  ['codex', 'Codex'],
];
const DATES: Array<[DateFilter, string]> = [
  ['all', 'Any time'],
  ['today', 'Today'],
  ['7d', 'Last 7 days'],
  ['30d', 'Last 30 days'],
];

/** Search (title, directory, branch) and the source / branch / date filters above the list. */
export function SearchBar({ filter, branches, onChange, onEnterList, inputRef, shown, total }: SearchBarProps) {
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === 'Escape') {
      // First Esc clears the text; a second one (already empty) leaves the box.
      if (filter.query.length > 0) onChange({ ...filter, query: '' });
      else event.currentTarget.blur();
      event.preventDefault();
    } else if (event.key === 'ArrowDown') {
      onEnterList();
      event.preventDefault();
    }
  }

  const filtering = isFiltering(filter);
  return (
    <div className="search-bar" role="search">
      <div className="search-field">
        <span className="search-icon" aria-hidden="true">
          ⌕
        </span>
        <input
          ref={inputRef}
          type="search"
          className="search-input"
          data-testid="session-search"
          placeholder="Search title, directory, branch"
          aria-label="Search sessions"
          aria-keyshortcuts="/"
          value={filter.query}
          onChange={(event) => onChange({ ...filter, query: event.target.value })}
          onKeyDown={onKeyDown}
          spellCheck={false}
          autoComplete="off"
        />
        <kbd className="search-hint" aria-hidden="true">
          /
        </kbd>
      </div>
      <div className="filter-row">
        <select aria-label="Source" data-testid="filter-source" value={filter.source} onChange={(event) => onChange({ ...filter, source: event.target.value as SourceFilter })}>
          {SOURCES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <select
          aria-label="Branch"
          data-testid="filter-branch"
          value={filter.branch ?? ''}
          onChange={(event) => onChange({ ...filter, branch: event.target.value === '' ? null : event.target.value })}
        >
          <option value="">Any branch</option>
          {/* A chosen branch stays selectable even when a refresh no longer lists it. */}
          {filter.branch !== null && !branches.includes(filter.branch) && <option value={filter.branch}>{filter.branch}</option>}
          {branches.map((branch) => (
            <option key={branch} value={branch}>
              {branch}
            </option>
          ))}
        </select>
        <select aria-label="Updated" data-testid="filter-date" value={filter.date} onChange={(event) => onChange({ ...filter, date: event.target.value as DateFilter })}>
          {DATES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {filtering && (
        <div className="filter-summary muted" data-testid="filter-summary" aria-live="polite">
          <span>
            {shown} of {total}
          </span>
          <button type="button" className="button-link" onClick={() => onChange(NO_FILTER)}>
            Clear filters
          </button>
        </div>
      )}
    </div>
  );
}
