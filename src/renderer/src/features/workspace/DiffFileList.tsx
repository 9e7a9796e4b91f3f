import { useId, useMemo, useState } from 'react';
import type { DiffFileList as DiffFileListValue, WorkspaceFile } from '../../../../shared/workspace';
import { countByStatus, filterFiles, splitPath, STATUS_LABEL, STATUS_LETTER } from './file-list-model';

export interface DiffFileListProps {
  list: DiffFileListValue;
  selected: string | null;
  onSelect: (path: string) => void;
  /** Tells the parent which files are visible, so ] and [ step through what the reader sees. */
  query: string;
  onQuery: (query: string) => void;
}

/** The changed files: status letter, path (old → new for renames), +/− counts, a filter, counts per status. */
export function DiffFileList({ list, selected, onSelect, query, onQuery }: DiffFileListProps) {
  const filterId = useId();
  const visible = useMemo(() => filterFiles(list.files, query), [list.files, query]);
  const counts = useMemo(() => countByStatus(list.files), [list.files]);

  return (
    <nav className="file-list" aria-label="Changed files" data-testid="diff-file-list">
      <div className="file-list-summary">
        <span data-testid="diff-file-total">
          {list.total} {list.total === 1 ? 'file' : 'files'}
        </span>
        <span className="ws-add">+{list.additions}</span>
        <span className="ws-del">−{list.deletions}</span>
      </div>
      <ul className="status-counts" aria-label="Files per status">
        {counts.map(({ status, count }) => (
          <li key={status} className={`status-count status-${status}`} data-testid="status-count" data-status={status} title={STATUS_LABEL[status]}>
            <span className="status-letter" aria-hidden="true">
              {STATUS_LETTER[status]}
            </span>
            {STATUS_LABEL[status]} {count}
          </li>
        ))}
      </ul>
      <label className="visually-hidden" htmlFor={filterId}>
        Filter changed files
      </label>
      <input
        id={filterId}
        className="file-filter"
        type="search"
        placeholder="Filter files…"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        data-testid="diff-file-filter"
        autoComplete="off"
        spellCheck={false}
      />
      {query.length > 0 && (
        <p className="file-list-note muted" aria-live="polite">
          {visible.length} of {list.total} shown
        </p>
      )}
      {visible.length === 0 ? (
        <p className="file-list-note muted">{list.total === 0 ? 'No changes: the working tree was clean at handoff.' : `No file matches “${query}”.`}</p>
      ) : (
        <ul className="files">
          {visible.map((file) => (
            <FileRow key={file.path} file={file} selected={file.path === selected} onSelect={onSelect} />
          ))}
        </ul>
      )}
    </nav>
  );
}

function FileRow({ file, selected, onSelect }: { file: WorkspaceFile; selected: boolean; onSelect: (path: string) => void }) {
  const { dir, name } = splitPath(file.path);
  const title = file.oldPath !== undefined ? `${STATUS_LABEL[file.status]}: ${file.oldPath} → ${file.path}` : `${STATUS_LABEL[file.status]}: ${file.path}`;
  return (
    <li>
      <button
        type="button"
        className="file-row"
        aria-current={selected ? 'true' : undefined}
        onClick={() => onSelect(file.path)}
        title={title}
        data-testid="diff-file"
        data-path={file.path}
        data-status={file.status}
      >
        <span className={`status-letter status-${file.status}`} aria-label={STATUS_LABEL[file.status]}>
          {STATUS_LETTER[file.status]}
        </span>
        <span className="file-path">
          {file.oldPath !== undefined && <span className="file-old-path">{file.oldPath} → </span>}
          <span className="file-dir">{dir}</span>
          <span className="file-name">{name}</span>
        </span>
        <span className="file-stats">
          {file.binary ? (
            <span className="badge" title="Binary file">
              bin
            </span>
          ) : (
            <>
              {(file.additions ?? 0) > 0 && <span className="ws-add">+{file.additions}</span>}
              {(file.deletions ?? 0) > 0 && <span className="ws-del">−{file.deletions}</span>}
            </>
          )}
          {file.modeChanged && (
            <span className="badge" title={`Mode ${file.oldMode ?? '—'} → ${file.newMode ?? '—'}`}>
              mode
            </span>
          )}
        </span>
      </button>
    </li>
  );
}
