// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileDiff, RehydrationPlan } from '../../../../shared/workspace';
import { errResult, MemoryBridge, okResult } from '../../test-support/memory-bridge';
import { ChangesTab } from './ChangesTab';
import { fileList, renderWithApi, SHA_A, SHA_B, SHA_C, verification, wsFile } from './test-kit';

afterEach(cleanup);

const THREE = fileList([
  wsFile('src/app.ts', { additions: 4, deletions: 2 }),
  wsFile('src/new.ts', { status: 'untracked', additions: 7, deletions: 0 }),
  wsFile('docs/old.md', { status: 'deleted', sha256: null, size: null, additions: 0, deletions: 3 }),
]);

function textDiff(path: string, original: string, modified: string): FileDiff {
  return {
    path,
    status: 'modified',
    binary: false,
    against: 'head',
    original: { kind: 'text', text: original, size: original.length, sha256: SHA_A },
    modified: { kind: 'text', text: modified, size: modified.length, sha256: SHA_B },
  };
}

function bridgeWith(status: unknown, list = THREE, file: (payload: { path: string; full?: boolean }) => FileDiff = (p) => textDiff(p.path, 'old', 'new')) {
  return new MemoryBridge()
    .handle('workspace:status', () => okResult(status))
    .handle('workspace:diff', () => okResult(list))
    .handle('workspace:file', (payload) => okResult(file(payload as { path: string; full?: boolean })));
}

const complete = { hasWorkspace: true, verification: verification('complete'), plan: { kind: 'nothing', reason: 'Nothing to do.' } };

describe('ChangesTab: status banner', () => {
  it('complete: a green banner saying the working tree matches', async () => {
    renderWithApi(<ChangesTab sessionId="s1" />, bridgeWith(complete));
    const banner = await screen.findByTestId('workspace-status');
    expect(banner.getAttribute('data-status')).toBe('complete');
    expect(banner.className).toContain('ws-banner-complete');
    expect(banner.textContent).toContain('Your working tree matches the handoff');
    expect(screen.queryAllByTestId('take-file')).toHaveLength(0);
  });

  it('partial: lists each drifted file with expected vs actual, short', async () => {
    const drifted = [
      { path: 'src/app.ts', expectedSha256: SHA_A, actualSha256: SHA_B },
      { path: 'src/new.ts', expectedSha256: SHA_C, actualSha256: null },
    ];
    const plan: RehydrationPlan = {
      kind: 'per-file',
      targetRoot: '/home/dev/projects/api',
      files: [
        { path: 'src/app.ts', action: 'write', expectedSha256: SHA_A, actualSha256: SHA_B },
        { path: 'src/new.ts', action: 'write', expectedSha256: SHA_C, actualSha256: null },
      ],
    };
    const bridge = bridgeWith({ hasWorkspace: true, verification: verification('partial', drifted), plan }, THREE, (p) =>
      (p as { against?: string }).against === 'disk' ? { ...textDiff(p.path, 'edited on disk', 'handed off'), against: 'disk' } : textDiff(p.path, 'old', 'new'),
    );
    const { shown } = renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    const banner = await screen.findByTestId('workspace-status');
    expect(banner.getAttribute('data-status')).toBe('partial');
    expect(banner.textContent).toContain('differs from the handoff in 2 files');
    const rows = screen.getAllByTestId('drifted-file');
    expect(rows.map((row) => row.getAttribute('data-path'))).toEqual(['src/app.ts', 'src/new.ts']);
    expect(rows[0]!.textContent).toContain(`expected ${'a'.repeat(10)} · on disk ${'b'.repeat(10)}`);
    expect(rows[0]!.textContent).not.toContain('a'.repeat(11));
    expect(rows[1]!.textContent).toContain('missing on disk');
    expect(within(rows[0]!).getByRole('button', { name: 'Take the handed-off version' })).toBeTruthy();
    // The drift as a diff: the disk against the handoff, asked with against: 'disk'.
    fireEvent.click(within(rows[0]!).getByTestId('drift-show-diff'));
    await within(rows[0]!).findByTestId('drift-diff');
    await waitFor(() => expect(shown.some((input) => input.path === 'src/app.ts' && input.original === 'edited on disk' && input.modified === 'handed off')).toBe(true));
    expect(bridge.calls.find((c) => c.channel === 'workspace:file' && (c.payload as { path: string }).path === 'src/app.ts')?.payload).toEqual({ sessionId: 's1', path: 'src/app.ts', against: 'disk' });
  });

  it('none: explains that the root is missing and offers a worktree at the planned directory, never automatically', async () => {
    const plan: RehydrationPlan = { kind: 'worktree', repoRoot: '/src/api', head: 'f'.repeat(40), defaultDir: '/home/dev/api-baton-s1', reason: 'The handed-off root is gone.' };
    const bridge = bridgeWith({
      hasWorkspace: true,
      verification: verification('none', [], [{ code: 'root-missing', message: '/home/dev/projects/api does not exist' }]),
      plan,
    }).handle('workspace:rehydrate', () => okResult({ log: [{ type: 'workspace.rehydrate', at: '2026-11-29T10:00:00.000Z', step: 'worktree-add', result: 'applied', targetDir: '/tmp/wt' }], targetDir: '/tmp/wt' }));
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    const banner = await screen.findByTestId('workspace-status');
    expect(banner.getAttribute('data-status')).toBe('none');
    expect(banner.textContent).toContain('/home/dev/projects/api does not exist');
    expect(banner.textContent).toContain('does not exist on this machine');
    const input = screen.getByTestId('worktree-dir') as HTMLInputElement;
    expect(input.value).toBe('/home/dev/api-baton-s1');
    fireEvent.change(input, { target: { value: '/tmp/wt' } });
    fireEvent.click(screen.getByTestId('worktree-start'));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('/tmp/wt');
    expect(bridge.callsTo('workspace:rehydrate')).toBe(0);
    fireEvent.click(within(dialog).getByTestId('confirm-dialog-confirm'));
    const result = await screen.findByTestId('rehydrate-result');
    expect(result.textContent).toContain('Applied');
    expect(result.textContent).toContain('created a worktree at /tmp/wt');
    expect(bridge.calls.find((call) => call.channel === 'workspace:rehydrate')?.payload).toEqual({ action: 'worktree', sessionId: 's1', targetDir: '/tmp/wt' });
  });

  it('a session without a git workspace says so and asks for no diff', async () => {
    const bridge = bridgeWith({ hasWorkspace: false, verification: null, plan: null });
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    expect((await screen.findByTestId('no-workspace')).textContent).toContain('not a git repository');
    expect(bridge.callsTo('workspace:diff')).toBe(0);
  });
});

describe('ChangesTab: take the handed-off version', () => {
  const drifted = [{ path: 'src/app.ts', expectedSha256: SHA_A, actualSha256: SHA_B }];
  const plan: RehydrationPlan = { kind: 'per-file', targetRoot: '/r', files: [{ path: 'src/app.ts', action: 'write', expectedSha256: SHA_A, actualSha256: SHA_B }] };

  it('asks first (naming the path and where the current file is kept), Cancel sends nothing, Confirm sends take-file and re-checks', async () => {
    let partial = true;
    const bridge = new MemoryBridge()
      .handle('workspace:status', () => okResult(partial ? { hasWorkspace: true, verification: verification('partial', drifted), plan } : complete))
      .handle('workspace:diff', () => okResult(THREE))
      .handle('workspace:file', (p) => okResult(textDiff((p as { path: string }).path, 'a', 'b')))
      .handle('workspace:rehydrate', () => {
        partial = false;
        return okResult({ log: [{ type: 'workspace.rehydrate', at: '2026-11-29T10:00:00.000Z', step: 'take-file', result: 'applied', path: 'src/app.ts', backupRef: 'sha256-bbbb' }] });
      });
    let sessionReloads = 0;
    renderWithApi(<ChangesTab sessionId="s1" onSessionChanged={() => sessionReloads++} />, bridge);
    fireEvent.click(await screen.findByTestId('take-file'));
    let dialog = screen.getByTestId('confirm-dialog');
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.textContent).toContain('src/app.ts');
    expect(dialog.textContent).toContain("kept under this session's artifacts");
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(bridge.callsTo('workspace:rehydrate')).toBe(0);

    fireEvent.click(screen.getByTestId('take-file'));
    dialog = screen.getByTestId('confirm-dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();

    fireEvent.click(screen.getByTestId('take-file'));
    fireEvent.click(screen.getByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(screen.getByTestId('workspace-status').getAttribute('data-status')).toBe('complete'));
    expect(bridge.calls.find((call) => call.channel === 'workspace:rehydrate')?.payload).toEqual({ action: 'take-file', sessionId: 's1', path: 'src/app.ts' });
    expect(screen.getByTestId('rehydrate-result').textContent).toContain('took the handed-off version of src/app.ts');
    expect(screen.getByTestId('rehydrate-result').textContent).toContain('sha256-bbbb');
    expect(bridge.callsTo('workspace:status')).toBe(2);
    expect(sessionReloads).toBe(1);
  });

  it('a refused step keeps the dialog open with the code', async () => {
    const bridge = bridgeWith({ hasWorkspace: true, verification: verification('partial', drifted), plan }).handle('workspace:rehydrate', () =>
      errResult('WORKSPACE_UNSAFE_PATH', 'src/app.ts resolves outside the repository'),
    );
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    fireEvent.click(await screen.findByTestId('take-file'));
    fireEvent.click(screen.getByTestId('confirm-dialog-confirm'));
    const alert = await within(screen.getByTestId('confirm-dialog')).findByRole('alert');
    expect(alert.textContent).toContain('WORKSPACE_UNSAFE_PATH');
    expect(alert.textContent).toContain('resolves outside the repository');
  });
});

describe('ChangesTab: file list and viewer', () => {
  it('shows counts per status, +/− totals, opens the first file, and filters by words', async () => {
    const { shown } = renderWithApi(<ChangesTab sessionId="s1" />, bridgeWith(complete));
    await screen.findAllByTestId('diff-file');
    expect(screen.getByTestId('diff-file-total').textContent).toBe('3 files');
    const counts = screen.getAllByTestId('status-count').map((chip) => `${chip.getAttribute('data-status')}:${chip.textContent}`);
    expect(counts).toEqual(['modified:MModified 1', 'untracked:UUntracked 1', 'deleted:DDeleted 1']);
    expect(screen.getByTestId('diff-file-list').textContent).toContain('+11');
    expect(screen.getByTestId('diff-file-list').textContent).toContain('−5');
    await waitFor(() => expect(screen.getByTestId('fake-diff').textContent).toBe('typescript|side|old|new'));
    expect(shown.at(-1)?.path).toBe('src/app.ts');

    fireEvent.change(screen.getByTestId('diff-file-filter'), { target: { value: 'SRC  new' } });
    expect(screen.getAllByTestId('diff-file').map((row) => row.getAttribute('data-path'))).toEqual(['src/new.ts']);
    expect(screen.getByText('1 of 3 shown')).toBeTruthy();
    fireEvent.change(screen.getByTestId('diff-file-filter'), { target: { value: 'nothing-like-this' } });
    expect(screen.queryAllByTestId('diff-file')).toHaveLength(0);
    expect(screen.getByText('No file matches “nothing-like-this”.')).toBeTruthy();
  });

  it('] and Alt+↑ step through the files; [ typed in the filter box stays text', async () => {
    renderWithApi(<ChangesTab sessionId="s1" />, bridgeWith(complete));
    await screen.findAllByTestId('diff-file');
    const open = () => screen.getByTestId('file-diff').getAttribute('data-path');
    await waitFor(() => expect(open()).toBe('src/app.ts'));
    expect(screen.getByTestId('file-key-hint').textContent).toContain('next / previous file');
    fireEvent.keyDown(document.body, { key: ']' });
    expect(open()).toBe('src/new.ts');
    fireEvent.keyDown(document.body, { key: 'ArrowUp', altKey: true });
    expect(open()).toBe('src/app.ts');
    fireEvent.keyDown(document.body, { key: '[' });
    expect(open()).toBe('docs/old.md');
    fireEvent.keyDown(screen.getByTestId('diff-file-filter'), { key: ']' });
    expect(open()).toBe('docs/old.md');
  });

  it('renames show the old path; binary files are marked', async () => {
    const list = fileList([
      wsFile('src/b.ts', { status: 'renamed', oldPath: 'src/a.ts' }),
      wsFile('img/logo.png', { binary: true, additions: null, deletions: null }),
    ]);
    renderWithApi(<ChangesTab sessionId="s1" />, bridgeWith(complete, list));
    const rows = await screen.findAllByTestId('diff-file');
    expect(rows[0]!.textContent).toContain('src/a.ts → ');
    expect(rows[0]!.querySelector('.status-letter')?.textContent).toBe('R');
    expect(rows[1]!.textContent).toContain('bin');
  });

  it('a binary file gets a panel with size and sha256 instead of the editor', async () => {
    const list = fileList([wsFile('img/logo.png', { binary: true, additions: null, deletions: null })]);
    const bridge = bridgeWith(complete, list, (p) => ({
      path: p.path,
      status: 'modified',
      binary: true,
      against: 'head',
      original: { kind: 'binary', size: 2048, sha256: SHA_A, image: { mime: 'image/png', base64: 'iVBORw0KGgo=' } },
      modified: { kind: 'binary', size: 3 * 1024 * 1024, sha256: SHA_B },
    }));
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    const panel = await screen.findByTestId('file-binary');
    expect(panel.textContent).toContain('Binary file · 2.0 KB · sha256 aaaaaaaaaa');
    expect(panel.textContent).toContain('Binary file · 3.0 MB · sha256 bbbbbbbbbb');
    expect(screen.queryByTestId('diff-editor')).toBeNull();
    // The side the host sent bytes for is previewed; the other (too big to send) is not.
    const images = within(panel).getAllByTestId('binary-image');
    expect(images.map((img) => img.getAttribute('src'))).toEqual(['data:image/png;base64,iVBORw0KGgo=']);
    expect(images[0]!.getAttribute('alt')).toBe('Before: the image');
  });

  it('a large file waits for Open, then asks again with full: true', async () => {
    const list = fileList([wsFile('data/big.json')]);
    const bridge = bridgeWith(complete, list, (p) =>
      p.full === true
        ? textDiff(p.path, '{}', '{"big":true}')
        : { ...textDiff(p.path, '', ''), modified: { kind: 'too-large', size: 5 * 1024 * 1024, sha256: SHA_B } },
    );
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    const panel = await screen.findByTestId('file-too-large');
    expect(panel.textContent).toContain('Large file (5.0 MB)');
    expect(screen.queryByTestId('diff-editor')).toBeNull();
    fireEvent.click(within(panel).getByRole('button', { name: 'Open' }));
    await waitFor(() => expect(screen.getByTestId('fake-diff').textContent).toBe('json|side|{}|{"big":true}'));
    expect(bridge.calls.filter((call) => call.channel === 'workspace:file').map((call) => call.payload)).toEqual([
      { sessionId: 's1', path: 'data/big.json' },
      { sessionId: 's1', path: 'data/big.json', full: true },
    ]);
  });

  it('an absent side is empty (added file); an unavailable side shows the reason', async () => {
    const list = fileList([wsFile('src/new.ts', { status: 'added' }), wsFile('src/huge.ts')]);
    const bridge = bridgeWith(complete, list, (p) =>
      p.path === 'src/new.ts'
        ? { ...textDiff(p.path, '', 'export {};'), status: 'added', original: { kind: 'absent' } }
        : { ...textDiff(p.path, 'x', ''), modified: { kind: 'unavailable', reason: 'The patch was too large to store (120 MB).' } },
    );
    const { shown } = renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    await waitFor(() => expect(screen.getByTestId('fake-diff').textContent).toBe('typescript|side||export {};'));
    // One side only: shown as the new file, not diffed against an empty model (no phantom `1 −`).
    expect(shown.at(-1)?.oneSide).toBe('added');
    expect(screen.getByTestId('diff-editor').getAttribute('data-one-side')).toBe('added');
    fireEvent.keyDown(document.body, { key: ']' });
    expect((await screen.findByTestId('file-unavailable')).textContent).toContain('The patch was too large to store (120 MB).');
  });

  it('the inline toggle reaches the editor and is remembered on this machine', async () => {
    window.localStorage.removeItem('baton.diff.inline');
    const { shown } = renderWithApi(<ChangesTab sessionId="s1" />, bridgeWith(complete));
    await waitFor(() => expect(screen.getByTestId('fake-diff').textContent).toContain('|side|'));
    fireEvent.click(screen.getByTestId('diff-inline'));
    await waitFor(() => expect(screen.getByTestId('fake-diff').textContent).toContain('|inline|'));
    expect(screen.getByTestId('diff-inline').getAttribute('aria-pressed')).toBe('true');
    expect(window.localStorage.getItem('baton.diff.inline')).toBe('true');
    expect(shown.at(-1)?.inline).toBe(true);
  });

  it('re-checks the status when the host says the session changed', async () => {
    const bridge = bridgeWith(complete);
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    await screen.findByTestId('workspace-status');
    const before = bridge.callsTo('workspace:status');
    await act(async () => bridge.emit('session:changed', { id: 's1', reason: 'handoff' }));
    await waitFor(() => expect(bridge.callsTo('workspace:status')).toBe(before + 1));
    await act(async () => bridge.emit('session:changed', { id: 'other', reason: 'handoff' }));
    expect(bridge.callsTo('workspace:status')).toBe(before + 1);
  });

  it('open in editor: a vscode:// link to the file on this disk; on the desktop, a button the host runs the editor for', async () => {
    const bridge = bridgeWith(complete, fileList([wsFile('src/app.ts')]))
      .handle('host:info', () => okResult({ host: 'electron', version: '0.1.0', dataDir: '/d', endpoint: '/d/run/baton.sock' }))
      .handle('editor:open', () => okResult({ command: 'code -g /home/dev/projects/api/src/app.ts:1' }));
    renderWithApi(<ChangesTab sessionId="s1" />, bridge);
    const link = await screen.findByTestId('open-in-vscode');
    expect(link.getAttribute('href')).toBe('vscode://file/home/dev/projects/api/src/app.ts:1');
    fireEvent.click(await screen.findByTestId('open-in-editor'));
    await waitFor(() => expect(screen.getByTestId('open-in-editor').textContent).toBe('Opened in editor'));
    expect(bridge.calls.find((c) => c.channel === 'editor:open')?.payload).toEqual({ sessionId: 's1', path: 'src/app.ts', line: 1 });
  });
});
