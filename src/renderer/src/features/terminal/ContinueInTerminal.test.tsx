// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TerminalCommand } from '../../../../shared/agents';
import { errResult, MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { ContinueInTerminal } from './ContinueInTerminal';
import { copyShortcut, copyText } from './copy-text';

afterEach(cleanup);

function command(overrides: Partial<TerminalCommand> = {}): TerminalCommand {
  return {
    tool: 'baton',
    command: 'baton resume s1',
    cwd: '/home/dev/api',
    cwdExists: true,
    movedTo: null,
    shellLine: 'cd /home/dev/api && baton resume s1',
    ...overrides,
  };
}

function setClipboard(value: Pick<Clipboard, 'writeText'> | undefined): void {
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
}

describe('Continue in terminal', () => {
  it('asks the host for the session, shows the exact shell line and the tool, and copies it', async () => {
    const written: string[] = [];
    setClipboard({ writeText: async (text: string) => void written.push(text) });
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(command()));
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    const button = screen.getByTestId('continue-in-terminal');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect((await screen.findByTestId('terminal-shell-line')).textContent).toBe('cd /home/dev/api && baton resume s1');
    expect(screen.getByTestId('terminal-tool').textContent).toBe('Baton');
    expect(bridge.calls).toEqual([{ channel: 'terminal:command', payload: { sessionId: 's1' } }]);
    expect(screen.queryByTestId('terminal-cwd-gone')).toBeNull();
    fireEvent.click(screen.getByTestId('terminal-copy'));
    await waitFor(() => expect(screen.getByTestId('terminal-copy').textContent).toBe('Copied'));
    expect(written).toEqual(['cd /home/dev/api && baton resume s1']);
  });

  it('a directory that is gone is named; a move is named too, and the command runs there', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () =>
      okResult(command({ tool: 'claude', cwdExists: false, movedTo: '/home/dev/work/api', shellLine: 'cd /home/dev/work/api && claude --resume abc' })),
    );
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    fireEvent.click(screen.getByTestId('continue-in-terminal'));
    const gone = await screen.findByTestId('terminal-cwd-gone');
    expect(gone.textContent).toContain('The directory /home/dev/api no longer exists.');
    expect(gone.textContent).toContain('It looks like it moved to /home/dev/work/api');
    expect(screen.getByTestId('terminal-tool').textContent).toBe('Claude Code');
    expect(screen.getByTestId('terminal-copy-status').textContent).toBe('Runs in /home/dev/work/api');
  });

  it('gone without a known move: only the first sentence', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(command({ tool: 'codex', cwdExists: false })));
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    fireEvent.click(screen.getByTestId('continue-in-terminal'));
    const gone = await screen.findByTestId('terminal-cwd-gone');
    expect(gone.textContent).toBe('The directory /home/dev/api no longer exists.');
    expect(screen.queryByTestId('terminal-moved-to')).toBeNull();
  });

  it('without a clipboard (browser host on http:) the line is selected and Ctrl+C is asked for', async () => {
    setClipboard(undefined);
    const bridge = new MemoryBridge().handle('terminal:command', () => okResult(command()));
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    fireEvent.click(screen.getByTestId('continue-in-terminal'));
    fireEvent.click(await screen.findByTestId('terminal-copy'));
    await waitFor(() => expect(screen.getByTestId('terminal-copy-status').textContent).toContain('press Ctrl+C'));
    expect(window.getSelection()?.toString()).toBe('cd /home/dev/api && baton resume s1');
  });

  it('Escape closes and gives focus back to the button; a failure shows the code', async () => {
    const bridge = new MemoryBridge().handle('terminal:command', () => errResult('NOT_FOUND', 'No session s1'));
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    fireEvent.click(screen.getByTestId('continue-in-terminal'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No session s1');
    expect(alert.textContent).toContain('NOT_FOUND');
    fireEvent.keyDown(alert, { key: 'Escape' });
    expect(screen.queryByTestId('terminal-popover')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('continue-in-terminal'));
  });
});

describe('copy helpers', () => {
  it('falls back to selection when writeText is refused', async () => {
    expect(await copyText('x', { writeText: () => Promise.reject(new Error('denied')) })).toBe('select');
    expect(await copyText('x', undefined)).toBe('select');
    expect(await copyText('x', { writeText: async () => undefined })).toBe('copied');
  });

  it('names the shortcut of the platform', () => {
    expect(copyShortcut('MacIntel')).toBe('⌘C');
    expect(copyShortcut('Linux x86_64')).toBe('Ctrl+C');
  });
});
