import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createApiFromTransport, createBridgeTransport, type BatonApi } from '../../api';
import type { DiffFileList, DriftedFile, WorkspaceFile, WorkspaceVerification } from '../../../../shared/workspace';
import { ApiContext } from '../../hooks/api-context';
import type { MemoryBridge } from '../../test-support/memory-bridge';
import { DiffEditorContext, type DiffInput, type MountDiffEditor } from './diff-editor-port';

/**
 * Test helpers for the session view's features: the memory bridge behind a real API, and a stand-in
 * diff editor (Monaco needs a real browser; the e2e specs run the real one) that records what it shows.
 */
export function renderWithApi(ui: ReactElement, bridge: MemoryBridge, shown: DiffInput[] = []) {
  const api: BatonApi = createApiFromTransport(createBridgeTransport(bridge));
  const mount: MountDiffEditor = async (element, input) => {
    const pre = document.createElement('pre');
    pre.setAttribute('data-testid', 'fake-diff');
    element.append(pre);
    const show = (next: DiffInput): void => {
      shown.push(next);
      pre.textContent = `${next.language}|${next.inline ? 'inline' : 'side'}|${next.original}|${next.modified}`;
    };
    show(input);
    return { update: show, dispose: () => pre.remove() };
  };
  const wrap = (inner: ReactElement) => (
    <ApiContext.Provider value={api}>
      <DiffEditorContext.Provider value={mount}>{inner}</DiffEditorContext.Provider>
    </ApiContext.Provider>
  );
  const view = render(wrap(ui));
  return { ...view, rerender: (next: ReactElement) => view.rerender(wrap(next)), api, shown };
}

export const SHA_A = 'a'.repeat(64);
export const SHA_B = 'b'.repeat(64);
export const SHA_C = 'c'.repeat(64);

export function wsFile(path: string, overrides: Partial<WorkspaceFile> = {}): WorkspaceFile {
  return {
    path,
    status: 'modified',
    staged: false,
    unstaged: true,
    sha256: SHA_A,
    binary: false,
    size: 10,
    oldMode: '100644',
    newMode: '100644',
    modeChanged: false,
    additions: 1,
    deletions: 1,
    ...overrides,
  };
}

export function fileList(files: WorkspaceFile[]): DiffFileList {
  const counts: Record<string, number> = {};
  for (const file of files) counts[file.status] = (counts[file.status] ?? 0) + 1;
  return {
    files,
    counts,
    total: files.length,
    additions: files.reduce((sum, file) => sum + (file.additions ?? 0), 0),
    deletions: files.reduce((sum, file) => sum + (file.deletions ?? 0), 0),
  };
}

export function verification(status: WorkspaceVerification['status'], drifted: DriftedFile[] = [], reasons: WorkspaceVerification['reasons'] = []): WorkspaceVerification {
  return {
    status,
    reasons: reasons.length > 0 ? reasons : [{ code: status === 'complete' ? 'match' : status === 'partial' ? 'file-drift' : 'root-missing', message: `${status} reason` }],
    drifted,
    targetRoot: status === 'none' ? null : '/home/dev/projects/api',
  };
}
