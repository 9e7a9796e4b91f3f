import { useCallback, useEffect, useRef } from 'react';
import type { BatonApi } from '../api';
import { ApiContext } from '../hooks/api-context';
import { useConnection } from '../hooks/use-connection';
import { useNow } from '../hooks/use-now';
import { useRemote } from '../hooks/use-remote';
import { useSessionDetail } from '../hooks/use-session-detail';
import { useSelection } from '../hooks/use-selection';
import { useSessions } from '../hooks/use-sessions';
import { useStickToBottom } from '../hooks/use-stick-to-bottom';
import { ConnectionBanner } from './ConnectionBanner';
import { DetailPane } from './DetailPane';
import { SessionsPane } from './SessionsPane';

/** The whole window: connection banner, resume candidates on the left, the open session on the right. */
export function App({ api }: { api: BatonApi }) {
  const [selectedId, setSelectedId] = useSelection();
  const detailRef = useRef<HTMLElement>(null);
  const connection = useConnection(api);
  const sessions = useSessions(api);
  const detail = useSessionDetail(api, selectedId);
  const now = useNow();
  const loadInfo = useCallback(() => api.invoke('host:info', {}), [api]);
  const info = useRemote('host:info', loadInfo);

  // A handoff or a baton:// link asks for a session: open it even before the list shows it.
  useEffect(() => api.on('session:select', ({ id }) => setSelectedId(id)), [api, setSelectedId]);
  useStickToBottom(detailRef, selectedId, detail.value);

  const openTitle = detail.value?.session.title;
  useEffect(() => {
    document.title = openTitle !== undefined && openTitle.length > 0 ? `${openTitle} — Baton` : 'Baton';
  }, [openTitle]);

  const count = sessions.value?.length;
  return (
    <ApiContext.Provider value={api}>
      <div className="app">
        <ConnectionBanner state={connection} />
        <div className="layout">
          <aside className="sidebar" aria-label="Resume candidates">
            <header className="sidebar-header">
              <span className="brand">
                <span className="brand-mark" aria-hidden="true" />
                Baton
              </span>
              {count !== undefined && <span className="muted">{count === 1 ? '1 session' : `${count} sessions`}</span>}
            </header>
            <div className="sidebar-body">
              <SessionsPane sessions={sessions} selectedId={selectedId} now={now} onOpen={setSelectedId} />
            </div>
            {info.value !== undefined && (
              <footer className="sidebar-footer muted" title={`Store: ${info.value.dataDir}`}>
                {info.value.host === 'electron' ? 'Desktop' : 'Browser'} · v{info.value.version}
              </footer>
            )}
          </aside>
          <main className="detail" aria-label="Session" ref={detailRef}>
            <DetailPane id={selectedId} detail={detail} storeEmpty={sessions.value?.length === 0} now={now} />
          </main>
        </div>
      </div>
    </ApiContext.Provider>
  );
}
