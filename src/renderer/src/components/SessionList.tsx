import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { flattenGroups, type SessionGroup } from '../model/group-sessions';
import { shortenPath } from '../model/shorten-path';
import { SessionItem } from './SessionItem';

export interface SessionListProps {
  groups: SessionGroup[];
  selectedId: string | null;
  now: number;
  onOpen: (id: string) => void;
}

/**
 * Resume candidates grouped by working directory. One roving tab stop: Tab enters the list at the
 * open (or first) session, ↑/↓/Home/End move through every session across groups, Enter opens.
 */
export function SessionList({ groups, selectedId, now, onOpen }: SessionListProps) {
  const listRef = useRef<HTMLElement>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const headingPrefix = useId();
  const order = flattenGroups(groups);
  const tabStop = [focusedId, selectedId, order[0]].find((id) => id !== null && id !== undefined && order.includes(id)) ?? null;

  function buttonFor(id: string): HTMLElement | undefined {
    const buttons = listRef.current?.querySelectorAll<HTMLElement>('[data-session-id]') ?? [];
    for (const button of buttons) if (button.dataset.sessionId === id) return button;
    return undefined;
  }

  function moveFocus(id: string | undefined): void {
    if (id === undefined) return;
    setFocusedId(id);
    buttonFor(id)?.focus();
  }

  // A session opened from elsewhere (a handoff, a link) is scrolled into sight in the list.
  useEffect(() => {
    if (selectedId !== null) buttonFor(selectedId)?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedId]);

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const current = tabStop === null ? -1 : order.indexOf(tabStop);
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(order[Math.min(order.length - 1, current + 1)]);
        break;
      case 'ArrowUp':
        moveFocus(order[Math.max(0, current - 1)]);
        break;
      case 'Home':
        moveFocus(order[0]);
        break;
      case 'End':
        moveFocus(order[order.length - 1]);
        break;
      case 'Enter':
        // Handled here rather than by the button's own click so Enter works wherever focus is in the list.
        if (tabStop !== null) onOpen(tabStop);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  return (
    <nav className="session-list" aria-label="Sessions" ref={listRef} onKeyDown={onKeyDown}>
      {groups.map((group, index) => {
        const headingId = `${headingPrefix}-group-${index}`;
        return (
          <section key={group.cwd} className="session-group" data-testid="session-group" data-cwd={group.cwd} aria-labelledby={headingId}>
            <h2 className="session-group-header" id={headingId} title={group.cwd}>
              <span className="session-group-path">{shortenPath(group.cwd)}</span>
              {/* The badge is for the eye; the hidden text gives the heading a readable name. */}
              <span className="count" data-testid="session-count" aria-hidden="true">
                {group.sessions.length}
              </span>
              <span className="visually-hidden">
                , {group.sessions.length} {group.sessions.length === 1 ? 'session' : 'sessions'}
              </span>
            </h2>
            <ul className="session-group-items">
              {group.sessions.map((session) => (
                <li key={session.id}>
                  <SessionItem
                    session={session}
                    selected={session.id === selectedId}
                    focusable={session.id === tabStop}
                    now={now}
                    onOpen={onOpen}
                    onFocus={setFocusedId}
                  />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
