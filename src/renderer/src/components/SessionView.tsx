import type { SessionDetail } from '../../../shared/ui-contract';
import { ChangesTab } from '../features/workspace/ChangesTab';
import { HistoryTab } from '../features/session-history/HistoryTab';
import { ContinueInTerminal } from '../features/terminal/ContinueInTerminal';
import { CarriedModel } from '../features/carried/CarriedModel';
import { SendToDevice } from '../features/devices/SendToDevice';
import { CarriedPermissions } from '../features/carried/CarriedPermissions';
import { CarriedTasks } from '../features/carried/CarriedTasks';
import { DamageBanner } from '../features/session/DamageBanner';
import { RemoteSessionNotice, SshBadge } from '../features/remote/RemoteSessionNotice';
import { SessionLifecycleActions } from '../features/lifecycle/SessionLifecycleActions';
import { Composer } from '../features/composer/Composer';
import { useSessionTab } from '../hooks/use-session-tab';
import { formatDateTime } from '../model/relative-time';
import { formatCount } from '../model/format-number';
import { Conversation, type InitialSearch } from '../features/conversation/Conversation';
import { ContextFact } from '../features/conversation/ContextFact';
import { RelativeTime } from './RelativeTime';
import { panelId, SessionTabs, tabId } from './SessionTabs';
import { SourceBadge } from './SourceBadge';

export interface SessionViewProps {
  detail: SessionDetail;
  now: number;
  /** Fetch the session again (a rehydration step changed session.json without an event). */
  onSessionChanged?: () => void;
  /** A cross-session search hit that opened this session: searched inside it, at that message. */
  initialSearch?: InitialSearch;
}

/** The open session: what it is and where it lives, then its conversation, its workspace changes and its history, as tabs. */
export function SessionView({ detail, now, onSessionChanged, initialSearch }: SessionViewProps) {
  const { session } = detail;
  const [tab, setTab] = useSessionTab(session.id);
  return (
    <article className="session-view" data-tab={tab} aria-labelledby="session-title">
      {/* Sticky: the conversation opens at its end, and the title and tabs must stay in sight. */}
      <header className="session-header">
        <div className="session-header-top">
          <h1 id="session-title" data-testid="session-title">
            {session.title.length > 0 ? session.title : 'Untitled session'}
          </h1>
          <SourceBadge source={session.source.tool} />
          {relayedFrom(session) !== null && (
            <span className="badge" data-testid="relayed-from" title={`Received through the relay from device ${relayedFrom(session)!.deviceId}`}>
              from {relayedFrom(session)!.name}
            </span>
          )}
          <SshBadge session={session} />
          <div className="session-header-actions">
            <SendToDevice sessionId={session.id} />
            <ContinueInTerminal sessionId={session.id} />
            <SessionLifecycleActions sessionId={session.id} archived={session.archived} />
          </div>
        </div>
        <p className="session-subtitle">
          <code title={session.cwd}>{session.cwd}</code>
          {session.branch !== null && (
            <span className="branch" title={`Branch ${session.branch}`}>
              <span aria-hidden="true">⎇ </span>
              {session.branch}
            </span>
          )}
        </p>
        <SessionTabs tab={tab} onSelect={setTab} />
      </header>
      <div className="tab-panel" role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} data-testid={`panel-${tab}`}>
        {tab === 'conversation' && <ConversationPanel detail={detail} now={now} initialSearch={initialSearch} />}
        {tab === 'changes' && <ChangesTab key={session.id} sessionId={session.id} onSessionChanged={onSessionChanged} />}
        {tab === 'history' && <HistoryTab sessionId={session.id} rehydrationLog={session.rehydrationLog} />}
      </div>
    </article>
  );
}

/** The sending device of a session that came through the relay (session.json `relayedFrom`, issue 13). */
function relayedFrom(session: SessionDetail['session']): { deviceId: string; name: string } | null {
  const value = (session as { relayedFrom?: { deviceId?: unknown; name?: unknown } }).relayedFrom;
  return value && typeof value.name === 'string' && typeof value.deviceId === 'string' ? { deviceId: value.deviceId, name: value.name } : null;
}

function ConversationPanel({ detail, now, initialSearch }: { detail: SessionDetail; now: number; initialSearch?: InitialSearch }) {
  const { session } = detail;
  return (
    <>
      <section className="session-details" aria-label="Details">
        <dl className="facts session-meta">
          <div>
            <dt>Held by</dt>
            {/* Plain words for holder and epoch: who may write now, and how often the session changed hands. */}
            <dd title={`Only the ${session.holder.who} may add to this session now; it changed hands ${formatCount(session.holder.epoch)} ${session.holder.epoch === 1 ? 'time' : 'times'}.`} data-testid="held-by">
              {session.holder.who}{' '}
              <span className="muted">
                · {session.holder.epoch === 0 ? 'never handed over' : `handed over ${formatCount(session.holder.epoch)} ${session.holder.epoch === 1 ? 'time' : 'times'}`}
              </span>
            </dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDateTime(session.createdAt)}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>
              <RelativeTime iso={session.updatedAt} now={now} />
            </dd>
          </div>
          {session.gitRoot !== null && session.gitRoot !== session.cwd && (
            <div>
              <dt>Git root</dt>
              <dd>
                <code>{session.gitRoot}</code>
              </dd>
            </div>
          )}
          {session.model !== null && (
            <div>
              <dt>Model</dt>
              <dd>{session.model.name}</dd>
            </div>
          )}
          <ContextFact context={session.context} />
        </dl>
        <DamageBanner damaged={session.damaged} />
        <RemoteSessionNotice session={session} />
        <CarriedPermissions permission={session.permission} />
        <CarriedModel model={session.model} />
        <CarriedTasks sessionId={session.id} />
      </section>
      <Conversation key={`${session.id}:${initialSearch?.query ?? ''}:${initialSearch?.seq ?? ''}`} detail={detail} now={now} initialSearch={initialSearch} />
      <Composer key={session.id} sessionId={session.id} externalId={session.source.externalId ?? null} />
    </>
  );
}
