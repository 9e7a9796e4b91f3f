import type { IndexRow } from '../../../shared/session';
import { RelativeTime } from './RelativeTime';
import { SourceBadge } from './SourceBadge';
import { formatCount } from '../model/format-number';

export interface SessionItemProps {
  session: IndexRow;
  selected: boolean;
  focusable: boolean;
  now: number;
  onOpen: (id: string) => void;
  onFocus: (key: string) => void;
}

/** One resume candidate: title, source, branch, when it last changed and how long it is (one fixed-height row). */
export function SessionItem({ session, selected, focusable, now, onOpen, onFocus }: SessionItemProps) {
  const messages = `${formatCount(session.messageCount)} ${session.messageCount === 1 ? 'message' : 'messages'}`;
  return (
    <button
      type="button"
      className="session-item"
      data-testid="session-item"
      data-session-id={session.id}
      data-item-key={session.id}
      data-source={session.source}
      aria-current={selected ? 'true' : undefined}
      tabIndex={focusable ? 0 : -1}
      onClick={() => onOpen(session.id)}
      onFocus={() => onFocus(session.id)}
    >
      <span className="session-item-top">
        <span className="session-item-title" title={session.title}>
          {session.title.length > 0 ? session.title : 'Untitled session'}
        </span>
        <SourceBadge source={session.source} />
      </span>
      <span className="session-item-meta">
        {session.branch !== null && (
          <span className="branch" title={`Branch ${session.branch}`}>
            <span aria-hidden="true">⎇ </span>
            {session.branch}
          </span>
        )}
        <RelativeTime iso={session.updatedAt} now={now} />
        <span>{messages}</span>
        {session.damaged === true && (
          <span className="badge badge-warn" title="Part of this session's log was damaged and set aside">
            damaged
          </span>
        )}
        {session.archived && <span className="badge">archived</span>}
      </span>
    </button>
  );
}
