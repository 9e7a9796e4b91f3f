// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COLLAPSE_MAX_LINES } from '../model/collapse';
import { detail, message } from '../test-support/fixtures';
import { renderWithApi } from '../features/workspace/test-kit';
import { MemoryBridge } from '../test-support/memory-bridge';
import { SessionView } from './SessionView';

afterEach(cleanup);
beforeEach(() => window.history.replaceState(null, '', '/'));

// The header's "Continue in terminal" needs an API; these tests never click it.
const render = (ui: ReactElement) => renderWithApi(ui, new MemoryBridge());

const NOW = Date.parse('2026-11-29T12:00:00.000Z');
/**
 * The Markdown pipeline is a lazy import: its first load is transformed by vitest, which took over
 * the default 1 s on a loaded machine (seen 2026-12-01, load average 12) although nothing was wrong.
 */
const LAZY_LOAD_TIMEOUT_MS = 10_000;

describe('SessionView and its messages', () => {
  it('renders the session header and every message with its role; a tool result is folded into its call card', () => {
    const messages = [
      message(0, { role: 'system', content: 'You are a careful engineer.' }),
      message(1, { role: 'user', content: 'Fix the failing test' }),
      message(2, {
        role: 'assistant',
        content: 'Running the tests first.',
        toolCalls: [{ id: 'call-1', name: 'bash', input: { command: 'npm test' }, exitCode: 1, output: 'FAIL src/a.test.ts' }],
      }),
      message(3, { role: 'tool', content: 'FAIL src/a.test.ts\n1 failed', toolCallId: 'call-1', exitCode: 1 }),
    ];
    render(<SessionView detail={detail('s1', messages, { title: 'Fix tests', cwd: '/home/dev/api', branch: 'main' })} now={NOW} />);
    expect(screen.getByTestId('session-title').textContent).toBe('Fix tests');
    expect(screen.getByRole('heading', { level: 1, name: 'Fix tests' })).toBeTruthy();
    expect(screen.getByText('/home/dev/api')).toBeTruthy();
    expect(screen.getByText('desktop')).toBeTruthy();
    const items = screen.getAllByTestId('message');
    expect(items.map((m) => m.getAttribute('data-role'))).toEqual(['system', 'user', 'assistant']);
    const call = within(items[2]!).getByTestId('tool-call');
    expect(call.textContent).toContain('bash');
    expect(call.textContent).toContain('command: npm test');
    expect(within(call).getByText('exit 1').className).toContain('badge-fail');
    expect(within(call).getByTestId('tool-output').textContent).toContain('FAIL src/a.test.ts');
    expect(screen.getAllByText(/FAIL src\/a.test.ts/)).toHaveLength(1);
  });

  it('never renders HTML in content as markup (Markdown drops raw HTML; tool output is text)', () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><b>bold</b>';
    const view = render(
      <SessionView
        detail={detail('s1', [
          message(0, { role: 'user', content: hostile }),
          message(1, { role: 'assistant', content: 'ok', toolCalls: [{ id: 'c', name: '<i>x</i>', output: '<iframe src="https://example.com">' }] }),
        ])}
        now={NOW}
      />,
    );
    const first = screen.getAllByTestId('message')[0]!;
    expect(first.textContent).toContain('bold');
    expect(screen.getByText('<iframe src="https://example.com">')).toBeTruthy();
    expect(view.container.querySelector('img, script, b, i, iframe')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('folds a long message behind "Show more"', async () => {
    const long = Array.from({ length: COLLAPSE_MAX_LINES + 10 }, (_, i) => `  line ${i}`).join('\n');
    render(<SessionView detail={detail('s1', [message(0, { role: 'assistant', content: long })])} now={NOW} />);
    const item = screen.getByTestId('message');
    // The Markdown pipeline loads lazily (the list's first screen does without it); then the fold.
    const toggle = await within(item).findByRole('button', { name: /Show more \(30 lines/ }, { timeout: LAZY_LOAD_TIMEOUT_MS });
    expect(item.textContent).not.toContain(`line ${COLLAPSE_MAX_LINES + 9}`);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(item.textContent).toContain(`line ${COLLAPSE_MAX_LINES + 9}`);
    expect(within(item).getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('offers a jump to the first message when only the newest were sent, and says when there are none', () => {
    const truncated = { ...detail('s1', [message(9)]), truncated: true };
    truncated.session.messageCount = 5000;
    const view = render(<SessionView detail={truncated} now={NOW} />);
    expect(screen.getByTestId('message-count').textContent).toBe('· 5,000 messages');
    expect(screen.getByTestId('jump-first')).toBeTruthy();
    view.unmount();
    render(<SessionView detail={detail('s2', [])} now={NOW} />);
    expect(screen.getByText('This session has no messages yet.')).toBeTruthy();
  });

  it('a command that never exited and a successful one are told apart', () => {
    render(
      <SessionView
        detail={detail('s1', [
          message(0, {
            role: 'assistant',
            content: '',
            toolCalls: [
              { id: 'a', name: 'bash', exitCode: 0 },
              { id: 'b', name: 'bash', exitCode: null },
            ],
          }),
        ])}
        now={NOW}
      />,
    );
    expect(screen.getByText('exit 0').className).toContain('badge-ok');
    expect(screen.getByText('no exit code')).toBeTruthy();
  });
});

describe('SessionView tabs', () => {
  const tabs = () => screen.getAllByRole('tab');
  const selected = () => tabs().find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent;

  function bridgeForTabs(): MemoryBridge {
    return new MemoryBridge()
      .handle('workspace:status', () => ({ ok: true, value: { hasWorkspace: false, verification: null, plan: null } }))
      .handle('approvals:history', () => ({ ok: true, value: [] }));
  }

  it('is a tablist: arrows, Home and End move and open, only the open tab is tabbable, the panel is labelled by its tab', () => {
    renderWithApi(<SessionView detail={detail('s1', [message(0)])} now={NOW} />, bridgeForTabs());
    expect(screen.getByRole('tablist').getAttribute('aria-label')).toBe('Session views');
    expect(tabs().map((tab) => tab.textContent)).toEqual(['Conversation', 'Changes', 'History']);
    expect(selected()).toBe('Conversation');
    expect(tabs().map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);

    fireEvent.keyDown(tabs()[0]!, { key: 'ArrowRight' });
    expect(selected()).toBe('Changes');
    expect(document.activeElement).toBe(screen.getByTestId('tab-changes'));
    expect(tabs().map((tab) => tab.tabIndex)).toEqual([-1, 0, -1]);
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe('session-tab-changes');
    expect(screen.getByTestId('tab-changes').getAttribute('aria-controls')).toBe(panel.id);
    expect(window.location.hash).toBe('#tab=changes');

    fireEvent.keyDown(tabs()[1]!, { key: 'End' });
    expect(selected()).toBe('History');
    fireEvent.keyDown(tabs()[2]!, { key: 'ArrowRight' });
    expect(selected()).toBe('Conversation');
    fireEvent.keyDown(tabs()[0]!, { key: 'ArrowLeft' });
    expect(selected()).toBe('History');
    fireEvent.keyDown(tabs()[2]!, { key: 'Home' });
    expect(selected()).toBe('Conversation');
    expect(screen.getAllByTestId('message')).toHaveLength(1);
    expect(window.location.hash).toBe('');
  });

  it('opens the tab named in the address for this session, and remembers each session’s tab', () => {
    window.history.replaceState(null, '', '/#session=s1&tab=history');
    const bridge = bridgeForTabs();
    const view = renderWithApi(<SessionView detail={detail('s1', [])} now={NOW} />, bridge);
    expect(selected()).toBe('History');
    expect(screen.getByTestId('panel-history')).toBeTruthy();

    // A link to another session with its tab opens that tab; a click writes it back to the address.
    window.history.replaceState(null, '', '/#session=s2&tab=history');
    view.rerender(<SessionView detail={detail('s2', [])} now={NOW} />);
    expect(selected()).toBe('History');
    fireEvent.click(screen.getByTestId('tab-changes'));
    expect(window.location.hash).toBe('#session=s2&tab=changes');

    window.history.replaceState(null, '', '/#session=s3');
    view.rerender(<SessionView detail={detail('s3', [])} now={NOW} />);
    expect(selected()).toBe('Conversation');
  });
});
