import { useRef, type KeyboardEvent } from 'react';
import { SESSION_TABS, type SessionTab } from '../hooks/use-session-tab';

const LABELS: Record<SessionTab, string> = { conversation: 'Conversation', changes: 'Changes', history: 'History' };

export const tabId = (tab: SessionTab): string => `session-tab-${tab}`;
export const panelId = (tab: SessionTab): string => `session-panel-${tab}`;

/**
 * The WAI-ARIA tabs pattern with automatic activation: ←/→ move and open, Home/End jump,
 * only the open tab is in the Tab order.
 */
export function SessionTabs({ tab, onSelect }: { tab: SessionTab; onSelect: (tab: SessionTab) => void }) {
  const refs = useRef(new Map<SessionTab, HTMLButtonElement>());

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    const index = SESSION_TABS.indexOf(tab);
    const last = SESSION_TABS.length - 1;
    const next =
      event.key === 'ArrowRight' ? (index + 1) % SESSION_TABS.length
      : event.key === 'ArrowLeft' ? (index - 1 + SESSION_TABS.length) % SESSION_TABS.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    const target = SESSION_TABS[next]!;
    onSelect(target);
    refs.current.get(target)?.focus();
  }

  return (
    <div className="tabs" role="tablist" aria-label="Session views" onKeyDown={onKeyDown}>
      {SESSION_TABS.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          id={tabId(name)}
          className="tab"
          aria-selected={name === tab}
          aria-controls={panelId(name)}
          tabIndex={name === tab ? 0 : -1}
          onClick={() => onSelect(name)}
          ref={(element) => {
            if (element === null) refs.current.delete(name);
            else refs.current.set(name, element);
          }}
          data-testid={`tab-${name}`}
        >
          {LABELS[name]}
        </button>
      ))}
    </div>
  );
}
