import { useState } from 'react';
import type { FileDiff, FileSide, WorkspaceFile } from '../../../../shared/workspace';
import { useApi } from '../../hooks/api-context';
import { STATUS_LABEL, STATUS_LETTER } from './file-list-model';
import { formatBytes, shortHash } from './format';
import { languageForPath } from './language-for-path';
import { MonacoDiffView } from './MonacoDiffView';
import { OpenInEditor } from './OpenInEditor';
import { useFileDiff } from './use-workspace';

export interface FileDiffPanelProps {
  sessionId: string;
  file: WorkspaceFile;
  inline: boolean;
  onInline: (inline: boolean) => void;
  /** Where the session's files are on this disk (for "Open in VS Code"); null when not here. */
  root?: string | null;
}

/** One changed file: a header with the view toggle, then Monaco, or a panel for binary, large or unavailable sides. */
export function FileDiffPanel({ sessionId, file, inline, onInline, root = null }: FileDiffPanelProps) {
  const api = useApi();
  const [fullFor, setFullFor] = useState<string | null>(null);
  const full = fullFor === file.path;
  const diff = useFileDiff(api, sessionId, file.path, full);

  return (
    <section className="file-diff" aria-label={`Diff of ${file.path}`} data-testid="file-diff" data-path={file.path}>
      <header className="file-diff-header">
        <span className={`status-letter status-${file.status}`} aria-hidden="true">
          {STATUS_LETTER[file.status]}
        </span>
        <h3 className="file-diff-path" data-testid="file-diff-path">
          {file.oldPath !== undefined && <span className="muted">{file.oldPath} → </span>}
          {file.path}
        </h3>
        <span className="muted file-diff-status">{STATUS_LABEL[file.status]}</span>
        {file.status !== 'deleted' && <OpenInEditor sessionId={sessionId} root={root} path={file.path} />}
        <div className="segmented" role="group" aria-label="Diff layout">
          <button type="button" aria-pressed={!inline} onClick={() => onInline(false)} data-testid="diff-side-by-side">
            Side by side
          </button>
          <button type="button" aria-pressed={inline} onClick={() => onInline(true)} data-testid="diff-inline">
            Inline
          </button>
        </div>
      </header>
      <FileDiffBody diff={diff.value} error={diff.error?.message} loading={diff.value === undefined && diff.error === undefined} inline={inline} onOpenFull={() => setFullFor(file.path)} onRetry={diff.reload} />
    </section>
  );
}

interface BodyProps {
  diff: FileDiff | undefined;
  error: string | undefined;
  loading: boolean;
  inline: boolean;
  onOpenFull: () => void;
  onRetry: () => void;
}

function FileDiffBody({ diff, error, loading, inline, onOpenFull, onRetry }: BodyProps) {
  if (diff === undefined) {
    if (error !== undefined) {
      return (
        <div className="inline-error" role="alert">
          <span>Could not read this file: {error}</span>
          <button type="button" className="button-link" onClick={onRetry}>
            Retry
          </button>
        </div>
      );
    }
    return loading ? <p className="muted file-diff-note" role="status">Reading the file…</p> : null;
  }
  const sides = [diff.original, diff.modified];
  const unavailable = sides.find((side) => side.kind === 'unavailable');
  if (unavailable?.kind === 'unavailable') {
    return (
      <div className="file-panel" data-testid="file-unavailable">
        <p className="file-panel-title">This change cannot be shown here</p>
        <p className="muted">{unavailable.reason}</p>
      </div>
    );
  }
  const large = sides.find((side) => side.kind === 'too-large');
  if (large?.kind === 'too-large') {
    return (
      <div className="file-panel" data-testid="file-too-large">
        <p className="file-panel-title">Large file ({formatBytes(large.size)})</p>
        <p className="muted">It is not opened automatically so the window stays fast.</p>
        <button type="button" className="button" onClick={onOpenFull} data-testid="open-large-file">
          Open
        </button>
      </div>
    );
  }
  if (diff.binary || sides.some((side) => side.kind === 'binary')) {
    return (
      <div className="file-panel" data-testid="file-binary">
        <p className="file-panel-title">Binary file</p>
        <dl className="binary-sides">
          <BinarySide label={diff.against === 'disk' ? 'On disk' : 'Before'} side={diff.original} />
          <BinarySide label="Handed off" side={diff.modified} />
        </dl>
      </div>
    );
  }
  return (
    <>
      <p className="file-diff-sides" data-testid="file-diff-sides">
        <span>{sideLabel(diff.original, diff.against === 'disk' ? 'Your disk now' : 'HEAD', 'no file before: added')}</span>
        <span aria-hidden="true">→</span>
        <span>{sideLabel(diff.modified, 'Handed-off working tree', 'deleted in the handoff')}</span>
      </p>
      <MonacoDiffView
        path={diff.path}
        original={textOf(diff.original)}
        modified={textOf(diff.modified)}
        language={languageForPath(diff.path)}
        inline={inline}
        oneSide={diff.original.kind === 'absent' ? 'added' : diff.modified.kind === 'absent' ? 'deleted' : undefined}
      />
    </>
  );
}

function sideLabel(side: FileSide, name: string, absent: string): string {
  return side.kind === 'absent' ? `${name} (${absent})` : side.kind === 'text' ? `${name} · ${formatBytes(side.size)}` : name;
}

function textOf(side: FileSide): string {
  return side.kind === 'text' ? side.text : '';
}

function BinarySide({ label, side }: { label: string; side: FileSide }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        {side.kind === 'binary' || side.kind === 'text' || side.kind === 'too-large' ? (
          <>
            {side.kind === 'binary' && side.image !== undefined && (
              // The host sniffed the bytes (PNG, JPEG, GIF, WebP only) and sends them: a data: URL, which the CSP allows for images.
              <img className="binary-image" data-testid="binary-image" src={`data:${side.image.mime};base64,${side.image.base64}`} alt={`${label}: the image`} />
            )}
            Binary file · {formatBytes(side.size)} · sha256 <code title={side.sha256}>{shortHash(side.sha256)}</code>
          </>
        ) : side.kind === 'absent' ? (
          <span className="muted">no file</span>
        ) : (
          <span className="muted">{side.reason}</span>
        )}
      </dd>
    </div>
  );
}
