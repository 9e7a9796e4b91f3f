// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { ChangesTab } from './ChangesTab';
import { fileList, renderWithApi, verification, wsFile } from './test-kit';

afterEach(cleanup);

describe('ChangesTab watches the handed-off files while it is open', () => {
  it('starts a watch, follows workspace:drift for its session only, and stops the watch when it closes', async () => {
    let partial = false;
    const drifted = [{ path: 'src/a.ts', expectedSha256: 'a'.repeat(64), actualSha256: 'b'.repeat(64), reason: 'content' }];
    const bridge = new MemoryBridge()
      .handle('workspace:status', () =>
        okResult({ hasWorkspace: true, verification: partial ? verification('partial', drifted as never) : verification('complete'), plan: { kind: 'nothing', reason: 'Nothing to do.' } }),
      )
      .handle('workspace:diff', () => okResult(fileList([wsFile('src/a.ts')])))
      .handle('workspace:file', () => okResult({ path: 'src/a.ts', status: 'modified', binary: false, against: 'head', original: { kind: 'text', text: 'a', size: 1, sha256: 'a'.repeat(64) }, modified: { kind: 'text', text: 'b', size: 1, sha256: 'b'.repeat(64) } }))
      .handle('workspace:watch', () => okResult({ watchId: 'w-1', watching: 1, leaseMs: 60_000 }))
      .handle('workspace:unwatch', () => okResult({ stopped: true }));
    const view = renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    expect((await screen.findByTestId('workspace-status')).getAttribute('data-status')).toBe('complete');
    await waitFor(() => expect(bridge.callsTo('workspace:watch')).toBe(1));
    expect(bridge.calls.find((c) => c.channel === 'workspace:watch')?.payload).toEqual({ sessionId: 's1' });

    partial = true;
    bridge.emit('workspace:drift', { sessionId: 'other', paths: ['x'] });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('workspace-status').getAttribute('data-status')).toBe('complete'); // another session's drift
    bridge.emit('workspace:drift', { sessionId: 's1', paths: ['src/a.ts'] });
    await waitFor(() => expect(screen.getByTestId('workspace-status').getAttribute('data-status')).toBe('partial'));

    view.unmount();
    await waitFor(() => expect(bridge.callsTo('workspace:unwatch')).toBe(1));
    expect(bridge.calls.find((c) => c.channel === 'workspace:unwatch')?.payload).toEqual({ watchId: 'w-1' });
    expect(bridge.listenerCount('workspace:drift')).toBe(0);
  });

  it('a host that cannot watch leaves the banner and "Check again" working', async () => {
    const bridge = new MemoryBridge()
      .handle('workspace:status', () => okResult({ hasWorkspace: true, verification: verification('complete'), plan: { kind: 'nothing', reason: 'Nothing to do.' } }))
      .handle('workspace:diff', () => okResult(fileList([])));
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    expect((await screen.findByTestId('workspace-status')).getAttribute('data-status')).toBe('complete');
    expect(screen.getByTestId('workspace-recheck')).toBeTruthy();
  });
});
