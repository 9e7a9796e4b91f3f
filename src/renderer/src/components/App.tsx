import { RelayFooter } from '../features/devices/RelayFooter';
import { EncryptionFooter } from '../features/encryption/EncryptionFooter';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { BatonApi } from '../api';
import { ApprovalToast } from '../features/approvals/ApprovalToast';
import { useApprovals } from '../features/approvals/use-approvals';
import { CandidateMissing } from '../features/agents/CandidateMissing';
import { useAgentScan } from '../features/agents/use-agent-scan';
import { ArchiveGroupButton } from '../features/lifecycle/ArchiveGroupButton';
import { ArchivedSection } from '../features/lifecycle/ArchivedSection';
import type { SearchHit } from '../../../shared/ui-contract';
import { HandoffAlerts } from '../features/alerts/HandoffAlerts';
import { displayTask, isLive } from '../features/tasks/task-display';
import { useTasks } from '../features/tasks/use-tasks';
import { ApiContext } from '../hooks/api-context';
import { useConnection } from '../hooks/use-connection';
import { useNow } from '../hooks/use-now';
import { useRemote } from '../hooks/use-remote';
import { useSessionDetail } from '../hooks/use-session-detail';
import { useSelection } from '../hooks/use-selection';
import { useSessions } from '../hooks/use-sessions';
import { useStickToBottom } from '../hooks/use-stick-to-bottom';
import { isTypingTarget } from '../model/keyboard';
import { isCandidateId, mergeRows } from '../model/merge-candidates';
import { ConnectionBanner } from './ConnectionBanner';
import { SidebarResizer, useSidebarWidth } from './SidebarResizer';
import { DetailPane } from './DetailPane';
import { SessionsPane } from './SessionsPane';
import { formatCount } from '../model/format-number';
import { ApprovalsPanel, CandidatePanel, DataPanel, DevicesPanel, preloadViews, SearchPanel, StatsPanel, TaskPanel } from './lazy-views';
import { ViewFallback } from './ViewFallback';

/** What the main area shows instead of the open session. */
export type Panel = 'approvals' | 'tasks' | 'stats' | 'devices' | 'search' | 'data' | null;

/**
 * The whole window: connection banner; on the left the resume candidates (Baton's index at once,
 * Claude Code and Codex sessions merged in when the scan answers) with the approvals and tasks
 * buttons; on the right the open session, a candidate, or the approvals / tasks / stats panel.
 */
export function App({ api }: { api: BatonApi }) {
  const [selectedId, setSelectedId] = useSelection();
  const [panel, setPanel] = useState<Panel>(null);
  const detailRef = useRef<HTMLElement>(null);
  const connection = useConnection(api);
  const sessions = useSessions(api);
  const scan = useAgentScan(api);
  // Candidates opened in Baton in this window: left out of the list at once (no duplicate row until a rescan).
  const [imported, setImported] = useState<ReadonlySet<string>>(() => new Set());
  const merged = useMemo(() => mergeRows(sessions.value ?? [], scan.candidates, imported), [sessions.value, scan.candidates, imported]);
  const candidateSelected = isCandidateId(selectedId);
  const sessionId = candidateSelected ? null : selectedId;
  const candidate = selectedId !== null && candidateSelected ? merged.candidates.get(selectedId) : undefined;
  const detail = useSessionDetail(api, sessionId);
  const approvals = useApprovals(api);
  const tasks = useTasks(api);
  const now = useNow();
  const [sidebarWidth, setSidebarWidth] = useSidebarWidth();
  const loadInfo = useCallback(() => api.invoke('host:info', {}), [api]);
  const info = useRemote('host:info', loadInfo);

  // A cross-session search hit opens its session with the same query searched inside it.
  const [initialSearch, setInitialSearch] = useState<{ sessionId: string; query: string; seq: number } | null>(null);
  const open = useCallback(
    (id: string | null) => {
      setSelectedId(id);
      setPanel(null);
      setInitialSearch(null);
    },
    [setSelectedId],
  );
  const openHit = useCallback(
    (hit: SearchHit, query: string) => {
      open(hit.sessionId);
      setInitialSearch({ sessionId: hit.sessionId, query, seq: hit.seq });
    },
    [open],
  );

  // A handoff or a baton:// link asks for a session: open it even before the list shows it.
  useEffect(() => api.on('session:select', ({ id }) => open(id)), [api, open]);
  // A deleted (or purged) open session: back to the empty view instead of a "not found".
  useEffect(() => api.on('session:changed', ({ id, reason }) => (reason === 'deleted' || reason === 'purged') && (id === sessionId || id === '*') && sessionId !== null && open(null)), [api, open, sessionId]);
  // baton://pair?code=…: the Devices panel with the code ready to join (the person confirms).
  const [pairCode, setPairCode] = useState<string | null>(null);
  useEffect(
    () =>
      api.on('devices:pair-link', ({ code }) => {
        setPairCode(code);
        setPanel('devices');
      }),
    [api],
  );
  useStickToBottom(detailRef, sessionId, detail.value);

  // Esc outside a field closes a panel and returns to the open session.
  useEffect(() => {
    if (panel === null) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.key === 'Escape' && !isTypingTarget(event.target) && !event.defaultPrevented) setPanel(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [panel]);

  const openTitle = candidate !== undefined ? candidate.title : detail.value?.session.title;
  useEffect(() => {
    const waiting = approvals.pending.value?.length ?? 0;
    const base = openTitle !== undefined && openTitle.length > 0 ? `${openTitle} — Baton` : 'Baton';
    document.title = waiting > 0 ? `(${waiting}) ${base}` : base;
  }, [openTitle, approvals.pending.value]);

  // The split views (lazy-views.tsx) are fetched once the list has its first rows, never before.
  const listShown = merged.rows.length > 0 || (sessions.value !== undefined && scan.settled);
  useEffect(() => {
    if (listShown) preloadViews();
  }, [listShown]);

  // Candidates still streaming in from the host are counted already (issue 15).
  const count = sessions.value === undefined ? undefined : merged.rows.length + Math.max(0, (scan.total ?? 0) - scan.candidates.length);
  const waiting = approvals.pending.value?.length ?? 0;
  const elapsed = Math.max(0, now - tasks.fetchedAt);
  const liveTasks = (tasks.tasks.value ?? []).filter((view) => isLive(displayTask(view, elapsed).state)).length;
  const togglePanel = (next: Exclude<Panel, null>) => setPanel((current) => (current === next ? null : next));

  let main;
  if (panel === 'approvals') main = <ApprovalsPanel approvals={approvals} rows={merged.rows} onOpenSession={open} />;
  else if (panel === 'tasks') main = <TaskPanel tasks={tasks} openSessionId={sessionId} rows={merged.rows} />;
  else if (panel === 'stats') main = <StatsPanel />;
  else if (panel === 'devices') main = <DevicesPanel initialCode={pairCode} />;
  else if (panel === 'search') main = <SearchPanel onOpenHit={openHit} />;
  else if (panel === 'data') main = <DataPanel />;
  else if (candidate !== undefined) main = (
      <CandidatePanel
        candidate={candidate}
        now={now}
        onOpened={(id) => {
          if (selectedId !== null) setImported((current) => new Set(current).add(selectedId));
          open(id);
        }}
      />
    );
  else if (selectedId !== null && candidateSelected) main = <CandidateMissing id={selectedId} scanning={!scan.settled || scan.scanning} />;
  else main = (
      <DetailPane
        id={sessionId}
        detail={detail}
        storeEmpty={sessions.value?.length === 0 && merged.rows.length === 0}
        now={now}
        initialSearch={initialSearch !== null && initialSearch.sessionId === sessionId ? initialSearch : undefined}
      />
    );

  return (
    <ApiContext.Provider value={api}>
      <div className="app">
        <ConnectionBanner state={connection} />
        <HandoffAlerts api={api} />
        <div className="layout" style={{ '--sidebar-width': `${sidebarWidth}px` } as React.CSSProperties}>
          <aside className="sidebar" aria-label="Resume candidates">
            <header className="sidebar-header">
              <span className="brand">
                <span className="brand-mark" aria-hidden="true" />
                Baton
              </span>
              {count !== undefined && (
                <span className="muted" data-testid="session-total">
                  {count === 1 ? '1 session' : `${formatCount(count)} sessions`}
                </span>
              )}
            </header>
            <nav className="sidebar-nav" aria-label="Panels">
              <button
                type="button"
                className={`nav-button ${waiting > 0 ? 'nav-button-alert' : ''}`}
                aria-pressed={panel === 'approvals'}
                data-testid="open-approvals"
                onClick={() => togglePanel('approvals')}
              >
                Approvals
                <span className={`count ${waiting > 0 ? 'count-alert' : ''}`} data-testid="approvals-badge" aria-label={`${waiting} waiting`}>
                  {waiting}
                </span>
              </button>
              <button type="button" className="nav-button" aria-pressed={panel === 'search'} data-testid="open-search" onClick={() => togglePanel('search')}>
                Search
              </button>
              <button type="button" className="nav-button" aria-pressed={panel === 'tasks'} data-testid="open-tasks" onClick={() => togglePanel('tasks')}>
                Tasks
                <span className="count" data-testid="tasks-badge" aria-label={`${liveTasks} running`}>
                  {liveTasks}
                </span>
              </button>
            </nav>
            <div className="sidebar-body sidebar-body-list">
              <SessionsPane sessions={sessions} rows={merged.rows} scan={scan} selectedId={selectedId} now={now} onOpen={open} groupAction={(cwd, ids) => <ArchiveGroupButton cwd={cwd} ids={ids} />} />
            </div>
            <ArchivedSection selectedId={selectedId} onOpen={open} />
            <footer className="sidebar-footer muted">
              {info.value !== undefined && (
                <span title={`Store: ${info.value.dataDir}`}>
                  {info.value.host === 'electron' ? 'Desktop' : 'Browser'} · v{info.value.version}
                </span>
              )}
              <button type="button" className="button-link footer-link" aria-pressed={panel === 'stats'} data-testid="open-stats" onClick={() => togglePanel('stats')}>
                Handoff stats
              </button>
              <button type="button" className="button-link footer-link" aria-pressed={panel === 'data'} data-testid="open-data" onClick={() => togglePanel('data')}>
                Your data
              </button>
              <RelayFooter pressed={panel === 'devices'} onOpen={() => togglePanel('devices')} />
              <EncryptionFooter encryption={info.value?.encryption} />
            </footer>
          </aside>
          <SidebarResizer width={sidebarWidth} onResize={setSidebarWidth} />
          <main className="detail" aria-label={panel === null ? 'Session' : panel} ref={detailRef} data-scroll-root>
            <Suspense fallback={<ViewFallback />}>{main}</Suspense>
          </main>
        </div>
        {approvals.toast !== null && panel !== 'approvals' && (
          <ApprovalToast
            view={approvals.toast}
            onReview={() => {
              approvals.dismissToast();
              setPanel('approvals');
            }}
            onDismiss={approvals.dismissToast}
          />
        )}
      </div>
    </ApiContext.Provider>
  );
}
