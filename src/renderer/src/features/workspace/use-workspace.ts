import { useCallback, useEffect } from 'react';
import type { BatonApi } from '../../api';
import type { UiResponse } from '../../../../shared/ui-contract';
import type { DiffFileList, FileDiff } from '../../../../shared/workspace';
import { useReconnect } from '../../hooks/use-connection';
import { useRemote, type Remote } from '../../hooks/use-remote';

export type WorkspaceStatus = UiResponse<'workspace:status'>;

/** Reloads `reload` when the host says this session changed, and after a reconnect. */
function useRefreshOn(api: BatonApi, sessionId: string, reload: () => void): void {
  useEffect(() => api.on('session:changed', (event) => event.id === sessionId && reload()), [api, sessionId, reload]);
  useReconnect(api, reload);
}

/** The handed-off workspace checked against this disk (complete / partial / none) and the rehydration plan. */
export function useWorkspaceStatus(api: BatonApi, sessionId: string): Remote<WorkspaceStatus> {
  const load = useCallback(() => api.invoke('workspace:status', { sessionId }), [api, sessionId]);
  const remote = useRemote(`workspace:status:${sessionId}`, load);
  useRefreshOn(api, sessionId, remote.reload);
  return remote;
}

/** The changed-file list; not asked for when the session has no git workspace. */
export function useWorkspaceDiff(api: BatonApi, sessionId: string, enabled: boolean): Remote<DiffFileList> {
  const load = useCallback(() => api.invoke('workspace:diff', { sessionId }), [api, sessionId]);
  const remote = useRemote(`workspace:diff:${sessionId}:${String(enabled)}`, enabled ? load : null);
  useRefreshOn(api, sessionId, remote.reload);
  return remote;
}

/** Both sides of one file; `full` asks for a file past the inline limit. */
export function useFileDiff(api: BatonApi, sessionId: string, path: string | null, full: boolean): Remote<FileDiff> {
  const load = useCallback(() => api.invoke('workspace:file', { sessionId, path: path ?? '', ...(full ? { full: true } : {}) }), [api, sessionId, path, full]);
  return useRemote(`workspace:file:${sessionId}:${path ?? ''}:${String(full)}`, path === null ? null : load);
}
