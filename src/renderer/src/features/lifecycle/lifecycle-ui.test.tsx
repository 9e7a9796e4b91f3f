// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { renderWithApi } from '../workspace/test-kit';
import { DataPanel } from './DataPanel';
import { SessionLifecycleActions } from './SessionLifecycleActions';

afterEach(() => cleanup());

const PLAN = { sessionId: 's-1', title: 'Fix login', state: 'live' as const, messageCount: 42, bytes: 3 * 1024 * 1024, receipts: 2, blockers: [] as string[] };

describe('Delete in the session view', () => {
  it('names what goes; Cancel deletes nothing; confirming deletes exactly that session', async () => {
    const bridge = new MemoryBridge().handle('sessions:delete-plan', () => okResult([PLAN])).handle('sessions:delete', () => okResult({ deleted: [PLAN], refused: [] }));
    let deleted = 0;
    renderWithApi(<SessionLifecycleActions sessionId="s-1" archived={false} onDeleted={() => deleted++} />, bridge);
    fireEvent.click(screen.getByTestId('delete-session'));
    const dialog = await screen.findByTestId('delete-dialog');
    expect(within(dialog).getByTestId('delete-what').textContent).toBe("“Fix login” (live): 42 messages, its artifacts and workspace patch, 2 handoff receipts — 3.0 MB in Baton's data directory.");
    // The dialog moves focus to Cancel in an effect, after it is first in the DOM.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByTestId('delete-dialog-cancel')));
    fireEvent.click(within(dialog).getByTestId('delete-dialog-cancel'));
    expect(screen.queryByTestId('delete-dialog')).toBeNull();
    expect(bridge.callsTo('sessions:delete')).toBe(0);

    fireEvent.click(screen.getByTestId('delete-session'));
    fireEvent.click(within(await screen.findByTestId('delete-dialog')).getByTestId('delete-dialog-confirm'));
    await waitFor(() => expect(deleted).toBe(1));
    expect(bridge.calls.find((c) => c.channel === 'sessions:delete')!.payload).toEqual({ ids: ['s-1'], confirmed: true, force: false });
  });

  it('shows what holds a busy session and says the delete is forced', async () => {
    const busy = { ...PLAN, blockers: ['task dev (npm run dev) is running'] };
    const bridge = new MemoryBridge().handle('sessions:delete-plan', () => okResult([busy])).handle('sessions:delete', () => okResult({ deleted: [busy], refused: [] }));
    renderWithApi(<SessionLifecycleActions sessionId="s-1" archived={false} />, bridge);
    fireEvent.click(screen.getByTestId('delete-session'));
    expect((await screen.findByTestId('delete-blockers')).textContent).toContain('task dev (npm run dev) is running');
    expect(screen.getByTestId('delete-dialog-confirm').textContent).toBe('Delete it anyway');
    fireEvent.click(screen.getByTestId('delete-dialog-confirm'));
    await waitFor(() => expect(bridge.callsTo('sessions:delete')).toBe(1));
    expect(bridge.calls.find((c) => c.channel === 'sessions:delete')!.payload).toMatchObject({ force: true });
  });

  it('Archive and Unarchive call their channel with the session id', async () => {
    const bridge = new MemoryBridge().handle('sessions:archive', () => okResult({ archived: ['s-1'] })).handle('sessions:unarchive', () => okResult({ unarchived: ['s-1'] }));
    const view = renderWithApi(<SessionLifecycleActions sessionId="s-1" archived={false} />, bridge);
    fireEvent.click(screen.getByTestId('archive-session'));
    await waitFor(() => expect(bridge.callsTo('sessions:archive')).toBe(1));
    view.rerender(<SessionLifecycleActions sessionId="s-1" archived />);
    fireEvent.click(screen.getByTestId('unarchive-session'));
    await waitFor(() => expect(bridge.callsTo('sessions:unarchive')).toBe(1));
  });
});

describe('Your data (settings)', () => {
  it('lists what purge removes with sizes and runs it only after the confirmation', async () => {
    const plan = {
      dataDir: '/home/u/.local/share/baton',
      items: [
        { kind: 'session', name: 's-1', title: 'Fix login', bytes: 2048 },
        { kind: 'archived', name: 's-2', title: 'Old', bytes: 1024 },
        { kind: 'events', name: 'events.jsonl', bytes: 512 },
      ],
      bytes: 3584,
      kept: ["device/ (this device's keys and pairings)"],
    };
    let purged = false;
    const bridge = new MemoryBridge()
      .handle('data:purge-plan', () => okResult(purged ? { ...plan, items: [], bytes: 0 } : plan))
      .handle('data:purge', () => {
        purged = true;
        return okResult({ removed: 3, bytes: 3584 });
      });
    renderWithApi(<DataPanel />, bridge);
    const items = await screen.findByTestId('purge-items');
    expect(items.querySelectorAll('tr[data-kind]')).toHaveLength(3);
    expect(screen.getByTestId('purge-total').textContent).toBe('3.5 KB');
    fireEvent.click(screen.getByTestId('purge-open'));
    fireEvent.click(within(await screen.findByTestId('purge-dialog')).getByTestId('purge-dialog-cancel'));
    expect(bridge.callsTo('data:purge')).toBe(0);
    fireEvent.click(screen.getByTestId('purge-open'));
    fireEvent.click(within(await screen.findByTestId('purge-dialog')).getByTestId('purge-dialog-confirm'));
    expect((await screen.findByTestId('purge-result')).textContent).toBe('Removed 3 items (3.5 KB).');
    expect(await screen.findByTestId('purge-empty')).toBeTruthy();
  });
});
