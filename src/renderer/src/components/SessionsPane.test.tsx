// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexRow } from '../../../shared/session';
import type { AgentScanState } from '../features/agents/use-agent-scan';
import type { Remote } from '../hooks/use-remote';
import { COLLAPSED_STORAGE_KEY } from '../model/collapsed-groups';
import { row } from '../test-support/fixtures';
import { SessionsPane } from './SessionsPane';

const NOW = Date.now();
const iso = (agoMs: number) => new Date(NOW - agoMs).toISOString();
const DAY = 24 * 60 * 60_000;
const rows: IndexRow[] = [
  row({ id: 'b1', title: 'Rate limiting for login', cwd: '/work/api', branch: 'main', source: 'baton', updatedAt: iso(60_000) }),
  row({ id: 'claude:c1', title: 'Refactor the parser', cwd: '/work/api', branch: 'parser', source: 'claude', updatedAt: iso(3 * DAY) }),
  row({ id: 'codex:x1', title: 'Fix flaky date picker', cwd: '/work/web', branch: 'main', source: 'codex', updatedAt: iso(40 * DAY) }),
];
const idle: AgentScanState = { candidates: [], scanning: false, error: undefined, settled: true, rescan: () => undefined };
const loaded = (value: IndexRow[]): Remote<IndexRow[]> => ({ value, error: undefined, loading: false, reload: () => undefined });

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

function renderPane(scan: AgentScanState = idle) {
  const opened: string[] = [];
  const view = render(<SessionsPane sessions={loaded(rows)} rows={rows} scan={scan} selectedId={null} now={NOW} onOpen={(id) => opened.push(id)} />);
  return { opened, view };
}
const shownIds = () => screen.queryAllByTestId('session-item').map((el) => el.getAttribute('data-session-id'));
const search = () => screen.getByTestId('session-search') as HTMLInputElement;

describe('SessionsPane search and filters', () => {
  it('search matches title, directory and branch', () => {
    renderPane();
    fireEvent.change(search(), { target: { value: 'parser' } });
    expect(shownIds()).toEqual(['claude:c1']);
    fireEvent.change(search(), { target: { value: '/work/web' } });
    expect(shownIds()).toEqual(['codex:x1']);
    expect(screen.getByTestId('filter-summary').textContent).toContain('1 of 3');
  });

  it('source, branch and date filters; Clear filters restores everything', () => {
    renderPane();
    fireEvent.change(screen.getByTestId('filter-source'), { target: { value: 'claude' } });
    expect(shownIds()).toEqual(['claude:c1']);
    fireEvent.change(screen.getByTestId('filter-source'), { target: { value: 'all' } });
    fireEvent.change(screen.getByTestId('filter-branch'), { target: { value: 'main' } });
    expect(shownIds().sort()).toEqual(['b1', 'codex:x1']);
    fireEvent.change(screen.getByTestId('filter-date'), { target: { value: '7d' } });
    expect(shownIds()).toEqual(['b1']);
    fireEvent.click(within(screen.getByTestId('filter-summary')).getByRole('button', { name: 'Clear filters' }));
    expect(shownIds()).toHaveLength(3);
  });

  it('no match says so and offers to clear', () => {
    renderPane();
    fireEvent.change(search(), { target: { value: 'nothing like this' } });
    const none = screen.getByTestId('no-matches');
    fireEvent.click(within(none).getByRole('button'));
    expect(shownIds()).toHaveLength(3);
    expect(search().value).toBe('');
  });

  it('`/` focuses the search from anywhere but a field; Esc clears it, a second Esc leaves it', () => {
    renderPane();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(search());
    fireEvent.change(search(), { target: { value: 'parser' } });
    fireEvent.keyDown(search(), { key: 'Escape' });
    expect(search().value).toBe('');
    expect(document.activeElement).toBe(search());
    fireEvent.keyDown(search(), { key: 'Escape' });
    expect(document.activeElement).not.toBe(search());
  });

  it('`/` typed inside a field is text, not a shortcut', () => {
    renderPane();
    const other = document.body.appendChild(document.createElement('input'));
    other.focus();
    fireEvent.keyDown(other, { key: '/' });
    expect(document.activeElement).toBe(other);
    other.remove();
  });

  it('↓ from the search enters the list; ↑ on the first item goes back', () => {
    renderPane();
    search().focus();
    fireEvent.keyDown(search(), { key: 'ArrowDown' });
    const first = document.activeElement as HTMLElement;
    expect(first.dataset.itemKey).toBe('group:/work/api');
    fireEvent.keyDown(screen.getByTestId('session-list'), { key: 'ArrowUp' });
    expect(document.activeElement).toBe(search());
  });
});

describe('SessionsPane groups and scan', () => {
  it('does not re-sort while the pointer is over the list; the real order returns when it leaves', () => {
    const { view } = renderPane();
    expect(shownIds()).toEqual(['b1', 'claude:c1', 'codex:x1']);
    const list = screen.getByTestId('session-list');
    fireEvent.pointerEnter(list);
    // The web session becomes the newest: its group would move to the top.
    const next = rows.map((r) => (r.id === 'codex:x1' ? { ...r, updatedAt: iso(1_000), title: 'Fix flaky date picker (live)' } : r));
    view.rerender(<SessionsPane sessions={loaded(next)} rows={next} scan={idle} selectedId={null} now={NOW} onOpen={() => undefined} />);
    expect(shownIds()).toEqual(['b1', 'claude:c1', 'codex:x1']);
    expect(screen.getAllByTestId('session-item')[2]!.textContent).toContain('(live)');
    fireEvent.pointerLeave(list);
    expect(shownIds()).toEqual(['codex:x1', 'b1', 'claude:c1']);
  });

  it('a collapsed group is remembered across a reload (localStorage)', () => {
    const { view } = renderPane();
    const apiHeader = () => within(screen.getAllByTestId('session-group').find((g) => g.getAttribute('data-cwd') === '/work/api')!).getByTestId('group-toggle');
    fireEvent.click(apiHeader());
    expect(shownIds()).toEqual(['codex:x1']);
    expect(JSON.parse(window.localStorage.getItem(COLLAPSED_STORAGE_KEY)!)).toEqual(['/work/api']);
    view.unmount();
    renderPane();
    expect(shownIds()).toEqual(['codex:x1']);
    expect(apiHeader().getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(apiHeader());
    expect(shownIds()).toHaveLength(3);
    expect(JSON.parse(window.localStorage.getItem(COLLAPSED_STORAGE_KEY)!)).toEqual([]);
  });

  it('shows the quiet scan indicator while Claude Code / Codex sessions are scanned', () => {
    renderPane({ ...idle, scanning: true, settled: false });
    expect(screen.getByTestId('scan-status').textContent).toBe('Scanning Claude Code and Codex sessions…');
  });

  it('a failed scan says so with Retry, and keeps the list', () => {
    let retried = 0;
    renderPane({ ...idle, error: Object.assign(new Error('EACCES ~/.claude'), { code: 'IO_ERROR', channel: 'agents:list' }) as never, rescan: () => (retried += 1) });
    const status = screen.getByTestId('scan-status');
    expect(status.getAttribute('data-state')).toBe('error');
    fireEvent.click(within(status).getByRole('button', { name: 'Retry' }));
    expect(retried).toBe(1);
    expect(shownIds()).toHaveLength(3);
  });
});
