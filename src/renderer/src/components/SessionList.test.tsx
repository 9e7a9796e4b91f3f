// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { groupSessions } from '../model/group-sessions';
import { row } from '../test-support/fixtures';
import { SessionList } from './SessionList';

afterEach(cleanup);

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
const rows = [
  row({ id: 'api-1', cwd: '/home/dev/projects/api', title: 'Fix login redirect', updatedAt: '2026-11-29T11:55:00.000Z', source: 'claude', branch: 'fix/login' }),
  row({ id: 'api-2', cwd: '/home/dev/projects/api', title: 'Add rate limiter', updatedAt: '2026-11-29T09:00:00.000Z', source: 'codex', messageCount: 1 }),
  row({ id: 'web-1', cwd: '/srv/checkouts/web', title: 'Upgrade router', updatedAt: '2026-11-29T11:59:30.000Z', source: 'baton', branch: null }),
];

function renderList(selectedId: string | null = null) {
  const opened: string[] = [];
  const view = render(<SessionList groups={groupSessions(rows)} selectedId={selectedId} now={NOW} onOpen={(id) => opened.push(id)} />);
  return { opened, view };
}

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
    expect(within(groups[0]!).getByTestId('session-count').textContent).toBe('1');
    expect(within(groups[0]!).getByRole('heading', { level: 2 }).textContent).toContain('1 session');
    expect(within(apiGroup).getAllByTestId('session-item').map((b) => b.getAttribute('data-session-id'))).toEqual(['api-1', 'api-2']);
  });

  it('shows title, source badge, branch, relative time and message count on each row', () => {
    renderList();
    const item = screen.getAllByTestId('session-item').find((b) => b.getAttribute('data-session-id') === 'api-1')!;
    expect(item.textContent).toContain('Fix login redirect');
    expect(item.textContent).toContain('claude');
    expect(item.textContent).toContain('fix/login');
    expect(item.textContent).toContain('5 min ago');
    expect(item.textContent).toContain('3 messages');
    const single = screen.getAllByTestId('session-item').find((b) => b.getAttribute('data-session-id') === 'api-2')!;
    expect(single.textContent).toContain('1 message');
    expect(single.textContent).toContain('codex');
    expect(screen.getByRole('navigation', { name: 'Sessions' })).toBeTruthy();
  });

  it('marks the open session and makes it the one tab stop', () => {
    renderList('api-2');
    const items = screen.getAllByTestId('session-item');
    const open = items.find((b) => b.getAttribute('data-session-id') === 'api-2')!;
    expect(open.getAttribute('aria-current')).toBe('true');
    expect(items.filter((b) => b.tabIndex === 0)).toEqual([open]);
  });

  it('a click opens a session', () => {
    const { opened } = renderList();
    fireEvent.click(screen.getByRole('button', { name: /Upgrade router/ }));
    expect(opened).toEqual(['web-1']);
  });

  it('↑/↓ move through sessions across groups, Home/End jump, Enter opens', () => {
    const { opened } = renderList();
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    const byId = (id: string) => screen.getAllByTestId('session-item').find((b) => b.getAttribute('data-session-id') === id)!;
    byId('web-1').focus();
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(byId('api-1'));
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(byId('api-2'));
    fireEvent.keyDown(nav, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(byId('api-2'));
    fireEvent.keyDown(nav, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(byId('api-1'));
    fireEvent.keyDown(nav, { key: 'Enter' });
    expect(opened).toEqual(['api-1']);
    fireEvent.keyDown(nav, { key: 'Home' });
    expect(document.activeElement).toBe(byId('web-1'));
    fireEvent.keyDown(nav, { key: 'End' });
    expect(document.activeElement).toBe(byId('api-2'));
    expect(byId('api-2').tabIndex).toBe(0);
    expect(byId('web-1').tabIndex).toBe(-1);
  });
});
