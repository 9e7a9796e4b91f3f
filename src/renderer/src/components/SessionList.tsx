import { Fragment, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { useViewport } from '../features/agents/use-viewport';
import type { SessionGroup } from '../../../shared/resume-groups';
import { heightOf, listItems, type ListItem } from '../model/list-items';
import { computeWindow, prefixOffsets, scrollToReveal } from '../model/windowing';
import { GroupHeader } from './GroupHeader';
import { SessionItem } from './SessionItem';

/** Extra pixels drawn above and below the viewport, so a fast scroll does not show blank space. */
export const OVERSCAN_PX = 480;
/** Items PageUp/PageDown move by. */
export const PAGE_ITEMS = 10;

export interface SessionListHandle {
  /** Moves keyboard focus into the list (the open session, else the first item). */
  focus(): void;
}

export interface SessionListProps {
  groups: SessionGroup[];
  selectedId: string | null;
  now: number;
  onOpen: (id: string) => void;
  collapsed?: ReadonlySet<string>;
  onToggleGroup?: (cwd: string) => void;
  /** A bulk action for a directory group's header (Archive all). */
  groupAction?: (cwd: string) => ReactNode;
  /** ↑ on the first item: the search box above takes focus back. */
  onExitTop?: () => void;
  handle?: Ref<SessionListHandle>;
  /** The pointer entered (true) or left (false) the list: the pane then keeps the order still. */
  onHoverChange?: (hovered: boolean) => void;
}

const NONE: ReadonlySet<string> = new Set();

interface Chunk {
  cwd: string;
  start: number;
  items: ListItem[];
  /** Height of the group's rows between its (sticky) header and the first row drawn. */
  gapPx: number;
}

/**
 * Resume candidates grouped by working directory, virtualized: only the items in view (plus
 * overscan) are in the DOM, so ten thousand sessions scroll like ten. Heights are fixed
 * (list-items.ts), which makes the window a binary search over prefix offsets.
 *
 * Keyboard: one roving tab stop; ↑/↓/Home/End/PageUp/PageDown walk headers and sessions, Enter
 * opens a session or toggles a group, ← collapses (or goes to the group's header), → expands.
 */
export function SessionList({ groups, selectedId, now, onOpen, collapsed = NONE, onToggleGroup, groupAction, onExitTop, handle, onHoverChange }: SessionListProps) {
  const scrollRef = useRef<HTMLElement>(null);
  const [viewport, scrollTo] = useViewport(scrollRef);
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const pendingFocus = useRef<string | null>(null);

  const items = useMemo(() => listItems(groups, collapsed), [groups, collapsed]);
  const offsets = useMemo(() => prefixOffsets(items, heightOf), [items]);
  const indexByKey = useMemo(() => new Map(items.map((item, index) => [item.key, index])), [items]);
  const tabStop = [focusKey, selectedId, items[0]?.key].find((key): key is string => key !== null && key !== undefined && indexByKey.has(key)) ?? null;

  const range = computeWindow(offsets, viewport.scrollTop, viewport.height, OVERSCAN_PX);

  function reveal(index: number): void {
    const target = scrollToReveal(offsets, index, viewport.scrollTop, viewport.height);
    if (target !== null) scrollTo(target);
  }

  function moveTo(index: number): void {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (item === undefined) return;
    setFocusKey(item.key);
    pendingFocus.current = item.key;
    reveal(indexByKey.get(item.key) ?? 0);
  }

  // Focus lands after the render that puts the target row in the DOM.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    if (key === null) return;
    const element = elementFor(key);
    if (element !== undefined) {
      pendingFocus.current = null;
      element.focus({ preventScroll: true });
    }
  });

  useImperativeHandle(handle, () => ({ focus: () => moveTo(tabStop === null ? 0 : (indexByKey.get(tabStop) ?? 0)) }));

  // A session opened from elsewhere (a handoff, a link) is scrolled into sight.
  useEffect(() => {
    if (selectedId === null) return;
    const index = indexByKey.get(selectedId);
    if (index !== undefined) reveal(index);
    // Only when the selection changes, not on every scroll.
  }, [selectedId]);

  function elementFor(key: string): HTMLElement | undefined {
    const candidates = scrollRef.current?.querySelectorAll<HTMLElement>('[data-item-key]') ?? [];
    for (const element of candidates) if (element.dataset.itemKey === key) return element;
    return undefined;
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>): void {
    const current = tabStop === null ? -1 : (indexByKey.get(tabStop) ?? -1);
    const item = items[current];
    switch (event.key) {
      case 'ArrowDown':
        moveTo(current + 1);
        break;
      case 'ArrowUp':
        if (current <= 0 && onExitTop !== undefined) onExitTop();
        else moveTo(current - 1);
        break;
      case 'PageDown':
        moveTo(current + PAGE_ITEMS);
        break;
      case 'PageUp':
        moveTo(current - PAGE_ITEMS);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(items.length - 1);
        break;
      case 'Enter':
      case ' ':
        // Handled here rather than by the button's own click so it works wherever focus is in the list.
        if (item?.kind === 'row') onOpen(item.row.id);
        else if (item?.kind === 'group') onToggleGroup?.(item.cwd);
        break;
      case 'ArrowLeft':
        if (item?.kind === 'group' && !item.collapsed) onToggleGroup?.(item.cwd);
        else if (item?.kind === 'row') moveTo(indexByKey.get(`group:${item.cwd}`) ?? current);
        break;
      case 'ArrowRight':
        if (item?.kind === 'group' && item.collapsed) onToggleGroup?.(item.cwd);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  // Consecutive visible items of one directory share a <section>, so a group stays one element.
  const chunks: Chunk[] = [];
  for (let index = range.start; index < range.end; index++) {
    const item = items[index]!;
    const last = chunks[chunks.length - 1];
    if (last !== undefined && last.cwd === item.cwd) last.items.push(item);
    else chunks.push({ cwd: item.cwd, start: index, items: [item], gapPx: 0 });
  }
  // Sticky headers: the header of the group the window starts inside is drawn too (CSS sticks it
  // to the top), with a spacer for its rows above the window, so the section still spans them.
  const first = chunks[0];
  if (first !== undefined && first.items[0]!.kind === 'row') {
    const header = indexByKey.get(`group:${first.cwd}`);
    if (header !== undefined) {
      first.gapPx = offsets[first.start]! - offsets[header + 1]!;
      first.items.unshift(items[header]!);
      first.start = header;
    }
  }

  return (
    <nav
      className="session-list"
      aria-label="Sessions"
      ref={scrollRef}
      onKeyDown={onKeyDown}
      onPointerEnter={() => onHoverChange?.(true)}
      onPointerLeave={() => onHoverChange?.(false)}
      data-testid="session-list"
      data-item-count={items.length}
    >
      <div className="session-list-canvas" style={{ height: offsets[items.length] }}>
        {chunks.map((chunk) => (
          <section key={chunk.cwd} className="session-group" data-testid="session-group" data-cwd={chunk.cwd} aria-label={chunk.cwd} style={{ top: offsets[chunk.start] }}>
            {chunk.items.map((item, i) =>
              item.kind === 'group' ? (
                <Fragment key={item.key}>
                <GroupHeader
                  key={item.key}
                  itemKey={item.key}
                  cwd={item.cwd}
                  count={item.count}
                  collapsed={item.collapsed}
                  focusable={item.key === tabStop}
                  onToggle={(cwd) => onToggleGroup?.(cwd)}
                  action={groupAction?.(item.cwd)}
                  onFocus={setFocusKey}
                />
                {i === 0 && chunk.gapPx > 0 && <div className="session-group-gap" style={{ height: chunk.gapPx }} aria-hidden="true" />}
                </Fragment>
              ) : (
                <div key={item.key} className="session-row">
                  <SessionItem session={item.row} selected={item.row.id === selectedId} focusable={item.key === tabStop} now={now} onOpen={onOpen} onFocus={setFocusKey} />
                </div>
              ),
            )}
          </section>
        ))}
      </div>
    </nav>
  );
}
