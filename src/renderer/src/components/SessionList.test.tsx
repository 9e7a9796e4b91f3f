// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { groupSessions } from '../../../shared/resume-groups';
import { GROUP_HEADER_HEIGHT, ROW_HEIGHT } from '../model/list-items';
import { row } from '../test-support/fixtures';
import { FALLBACK_VIEWPORT_PX } from '../features/agents/use-viewport';
import { OVERSCAN_PX, SessionList } from './SessionList';

afterEach(cleanup);

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const rows = [
  row({ id: 'api-1', cwd: '/home/dev/projects/api', title: 'Fix login redirect', updatedAt: '2026-11-29T11:55:00.000Z', source: 'claude', branch: 'fix/login' }),
  row({ id: 'api-2', cwd: '/home/dev/projects/api', title: 'Add rate limiter', updatedAt: '2026-11-29T09:00:00.000Z', source: 'codex', messageCount: 1 }),
  row({ id: 'web-1', cwd: '/srv/checkouts/web', title: 'Upgrade router', updatedAt: '2026-11-29T11:59:30.000Z', source: 'baton', branch: null }),
];

function renderList(selectedId: string | null = null, collapsed: ReadonlySet<string> = new Set()) {
  const opened: string[] = [];
  const toggled: string[] = [];
  const view = render(
    <SessionList groups={groupSessions(rows)} selectedId={selectedId} now={NOW} onOpen={(id) => opened.push(id)} collapsed={collapsed} onToggleGroup={(cwd) => toggled.push(cwd)} />,
  );
  return { opened, toggled, view };
}

const byKey = (key: string) => document.querySelector<HTMLElement>(`[data-item-key="${CSS.escape(key)}"]`)!;

describe('SessionList', () => {
  it('renders one group per working directory with its count, newest group first', () => {
    renderList();
    const groups = screen.getAllByTestId('session-group');
    expect(groups.map((g) => g.getAttribute('data-cwd'))).toEqual(['/srv/checkouts/web', '/home/dev/projects/api']);
    const apiGroup = groups[1]!;
    const heading = within(apiGroup).getByRole('heading', { level: 2 });
    expect(heading.getAttribute('title')).toBe('/home/dev/projects/api');
    expect(heading.textContent).toContain('~/projects/api');
    expect(within(apiGroup).getByTestId('session-count').textContent).toBe('2');
    expect(heading.textContent).toContain('2 sessions');
    expect(within(groups[0]!).getByRole('heading', { level: 2 }).textContent).toContain('1 session');
    expect(within(apiGroup).getAllByTestId('session-item').map((b) => b.getAttribute('data-session-id'))).toEqual(['api-1', 'api-2']);
  });

  it('shows title, source badge, branch, relative time and message count on each row', () => {
    renderList();
    const item = byKey('api-1');
    expect(item.textContent).toContain('Fix login redirect');
    expect(item.textContent).toContain('claude');
    expect(item.textContent).toContain('fix/login');
    expect(item.textContent).toContain('5 min ago');
    expect(item.textContent).toContain('3 messages');
    expect(byKey('api-2').textContent).toContain('1 message');
    expect(byKey('api-2').getAttribute('data-source')).toBe('codex');
  });

  it('marks the open session and makes it the one tab stop', () => {
    renderList('api-2');
    const open = byKey('api-2');
    expect(open.getAttribute('aria-current')).toBe('true');
    expect([...document.querySelectorAll<HTMLElement>('[data-item-key]')].filter((b) => b.tabIndex === 0)).toEqual([open]);
  });

  it('a click opens a session; a click on a header toggles its group', () => {
    const { opened, toggled } = renderList();
    fireEvent.click(screen.getByRole('button', { name: /Upgrade router/ }));
    expect(opened).toEqual(['web-1']);
    fireEvent.click(within(screen.getAllByTestId('session-group')[1]!).getByTestId('group-toggle'));
    expect(toggled).toEqual(['/home/dev/projects/api']);
  });

  it('a collapsed group shows its header and count, not its sessions', () => {
    renderList(null, new Set(['/home/dev/projects/api']));
    const api = screen.getAllByTestId('session-group')[1]!;
    expect(within(api).queryAllByTestId('session-item')).toHaveLength(0);
    expect(within(api).getByTestId('group-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(within(api).getByTestId('session-count').textContent).toBe('2');
  });

  it('↑/↓ walk headers and sessions across groups, Home/End jump, Enter opens or toggles, ←/→ collapse and expand', () => {
    const { opened, toggled } = renderList();
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    const focused = () => (document.activeElement as HTMLElement | null)?.dataset.itemKey;
    byKey('web-1').focus();
    fireEvent.focusIn(byKey('web-1'));
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(focused()).toBe('group:/home/dev/projects/api');
    fireEvent.keyDown(nav, { key: 'Enter' });
    expect(toggled).toEqual(['/home/dev/projects/api']);
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(focused()).toBe('api-1');
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(focused()).toBe('api-2');
    fireEvent.keyDown(nav, { key: 'ArrowUp' });
    expect(focused()).toBe('api-1');
    fireEvent.keyDown(nav, { key: 'Enter' });
    expect(opened).toEqual(['api-1']);
    fireEvent.keyDown(nav, { key: 'ArrowLeft' });
    expect(focused()).toBe('group:/home/dev/projects/api');
    fireEvent.keyDown(nav, { key: 'ArrowLeft' });
    expect(toggled).toEqual(['/home/dev/projects/api', '/home/dev/projects/api']);
    fireEvent.keyDown(nav, { key: 'Home' });
    expect(focused()).toBe('group:/srv/checkouts/web');
    fireEvent.keyDown(nav, { key: 'End' });
    expect(focused()).toBe('api-2');
    expect(byKey('api-2').tabIndex).toBe(0);
    expect(byKey('web-1').tabIndex).toBe(-1);
  });
});

describe('SessionList at scale', () => {
  // 10,000 sessions over 100 directories.
  const many = Array.from({ length: 10_000 }, (_, i) =>
    row({ id: `s${String(i).padStart(5, '0')}`, cwd: `/p/repo-${String(i % 100).padStart(3, '0')}`, updatedAt: new Date(NOW - i * 60_000).toISOString() }),
  );
  const groups = groupSessions(many);
  // +1: the sticky header of the group the window starts inside.
  const maxInWindow = Math.ceil((FALLBACK_VIEWPORT_PX + 2 * OVERSCAN_PX) / Math.min(ROW_HEIGHT, GROUP_HEADER_HEIGHT)) + 3;

  it('only a window of rows is in the DOM, and scrolling moves the window', () => {
    const started = performance.now();
    render(<SessionList groups={groups} selectedId={null} now={NOW} onOpen={() => undefined} />);
    const firstRender = performance.now() - started;
    const nav = screen.getByTestId('session-list');
    expect(nav.getAttribute('data-item-count')).toBe(String(10_000 + 100));
    const items = () => document.querySelectorAll('[data-item-key]');
    expect(items().length).toBeGreaterThan(5);
    expect(items().length).toBeLessThanOrEqual(maxInWindow);
    // The canvas is as tall as all items, so the scrollbar is honest.
    const canvas = nav.firstElementChild as HTMLElement;
    expect(canvas.style.height).toBe(`${100 * GROUP_HEADER_HEIGHT + 10_000 * ROW_HEIGHT}px`);

    const firstKey = items()[0]!.getAttribute('data-item-key');
    act(() => {
      nav.scrollTop = 300_000;
      fireEvent.scroll(nav);
    });
    const after = [...items()].map((el) => el.getAttribute('data-item-key'));
    expect(after).not.toContain(firstKey);
    expect(after.length).toBeLessThanOrEqual(maxInWindow);
    // The section that holds the window sits at its group header's offset in the canvas, not at the
    // top; the header is drawn (sticky) with a spacer for the rows above the window, so the first
    // row drawn still lands at its own offset.
    const section = screen.getAllByTestId('session-group')[0]!;
    const top = Number.parseFloat(section.style.top);
    const groupIndex = Math.floor(300_000 / (GROUP_HEADER_HEIGHT + 100 * ROW_HEIGHT));
    expect(top).toBe(groupIndex * (GROUP_HEADER_HEIGHT + 100 * ROW_HEIGHT));
    expect(section.firstElementChild!.classList.contains('session-group-header')).toBe(true);
    const gap = Number.parseFloat(section.querySelector<HTMLElement>('.session-group-gap')!.style.height);
    const firstRow = section.querySelector('.session-row [data-item-key]')!.getAttribute('data-item-key')!;
    const rowIndex = groups[groupIndex]!.sessions.findIndex((r) => r.id === firstRow);
    expect(GROUP_HEADER_HEIGHT + gap).toBe(GROUP_HEADER_HEIGHT + rowIndex * ROW_HEIGHT);
    expect(top + GROUP_HEADER_HEIGHT + rowIndex * ROW_HEIGHT).toBeGreaterThan(300_000 - OVERSCAN_PX - ROW_HEIGHT * 2);
    expect(firstRender).toBeLessThan(1_500);
  });

  it('End jumps to the last session, which is rendered and focused', () => {
    render(<SessionList groups={groups} selectedId={null} now={NOW} onOpen={() => undefined} />);
    const nav = screen.getByTestId('session-list');
    (document.querySelector('[data-item-key]') as HTMLElement).focus();
    fireEvent.keyDown(nav, { key: 'End' });
    const lastId = groups[groups.length - 1]!.sessions.at(-1)!.id;
    expect((document.activeElement as HTMLElement).dataset.itemKey).toBe(lastId);
    expect(document.querySelectorAll('[data-item-key]').length).toBeLessThanOrEqual(maxInWindow);
  });

  it('a session selected from elsewhere is scrolled into the window', () => {
    const { rerender } = render(<SessionList groups={groups} selectedId={null} now={NOW} onOpen={() => undefined} />);
    const target = groups[60]!.sessions[50]!.id;
    expect(document.querySelector(`[data-item-key="${target}"]`)).toBeNull();
    rerender(<SessionList groups={groups} selectedId={target} now={NOW} onOpen={() => undefined} />);
    expect(document.querySelector(`[data-item-key="${target}"]`)?.getAttribute('aria-current')).toBe('true');
  });
});
