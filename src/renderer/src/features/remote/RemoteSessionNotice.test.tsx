// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { REMOTE_SESSION_LIMITS } from '../../../../shared/ssh-origin';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { ContinueInTerminal } from '../terminal/ContinueInTerminal';
import { RemoteSessionNotice, SshBadge } from './RemoteSessionNotice';

afterEach(cleanup);

describe('a session that came through baton ssh', () => {
  it('says where it came from and lists every action that cannot run on this computer', () => {
    render(
      <>
        <SshBadge session={{ sshFrom: { host: 'me@devbox', receivedAt: '2026-11-30T00:00:00Z' } }} />
        <RemoteSessionNotice session={{ sshFrom: { host: 'me@devbox', receivedAt: '2026-11-30T00:00:00Z' } }} />
      </>,
    );
    expect(screen.getByTestId('ssh-from').textContent).toBe('over SSH from me@devbox');
    expect(screen.getByTestId('remote-host').textContent).toBe('me@devbox');
    const items = screen.getByTestId('remote-limits').querySelectorAll('li');
    expect([...items].map((li) => li.querySelector('strong')!.textContent)).toEqual(REMOTE_SESSION_LIMITS.map((l) => l.action));
  });

  it('shows nothing for a local session', () => {
    const { container } = render(
      <>
        <SshBadge session={{ cwd: '/x' }} />
        <RemoteSessionNotice session={{ relayedFrom: { name: 'laptop', deviceId: 'd' } }} />
      </>,
    );
    expect(container.textContent).toBe('');
  });

  it('Continue in terminal shows the ssh line and says where it runs', async () => {
    const line = `ssh me@devbox -t 'cd /home/me/api && claude --resume abc'`;
    const bridge = new MemoryBridge().handle('terminal:command', () =>
      okResult({ tool: 'claude', command: 'claude --resume abc', cwd: '/home/me/api', cwdExists: false, movedTo: '/Users/me/code/api', shellLine: line, sshHost: 'me@devbox' }),
    );
    renderWithApi(<ContinueInTerminal sessionId="s1" />, bridge);
    fireEvent.click(screen.getByTestId('continue-in-terminal'));
    expect((await screen.findByTestId('terminal-shell-line')).textContent).toBe(line);
    expect(screen.getByTestId('terminal-ssh').textContent).toContain('me@devbox');
    expect(screen.getByTestId('terminal-local-clone').textContent).toBe('/Users/me/code/api');
    expect(screen.queryByTestId('terminal-cwd-gone')).toBeNull();
    expect(screen.getByTestId('terminal-copy-status').textContent).toBe('Runs in /home/me/api on me@devbox');
  });
});
