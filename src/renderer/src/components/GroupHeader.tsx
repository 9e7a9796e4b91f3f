import type { ReactNode } from 'react';
import { shortenPath } from '../model/shorten-path';

export interface GroupHeaderProps {
  cwd: string;
  count: number;
  collapsed: boolean;
  focusable: boolean;
  onToggle: (cwd: string) => void;
  onFocus: (key: string) => void;
  itemKey: string;
  /** A bulk action shown beside the toggle (Archive all). */
  action?: ReactNode;
}

/** A working directory's header: click (or Enter, ←/→) collapses and expands its sessions. */
export function GroupHeader({ cwd, count, collapsed, focusable, onToggle, onFocus, itemKey, action }: GroupHeaderProps) {
  return (
    <h2 className="session-group-header" title={cwd}>
      <button
        type="button"
        className="group-toggle"
        data-testid="group-toggle"
        data-item-key={itemKey}
        aria-expanded={!collapsed}
        tabIndex={focusable ? 0 : -1}
        onClick={() => onToggle(cwd)}
        onFocus={() => onFocus(itemKey)}
      >
        <span className="chevron" aria-hidden="true">
          {collapsed ? '▸' : '▾'}
        </span>
        <span className="session-group-path">{shortenPath(cwd)}</span>
        {/* The badge is for the eye; the hidden text gives the heading a readable name. */}
        <span className="count" data-testid="session-count" aria-hidden="true">
          {count}
        </span>
        <span className="visually-hidden">
          , {count} {count === 1 ? 'session' : 'sessions'}
          {collapsed ? ', collapsed' : ''}
        </span>
      </button>
      {action}
    </h2>
  );
}
