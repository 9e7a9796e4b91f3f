import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { landAndReadBack } from '../handoff/send.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { connectEndpoint } from '../transport/client.js';
import type { EndpointClient } from '../transport/types.js';
import { uploadSession } from './session-upload.js';

/**
 * A session whose workspace is on the remote box: the desktop shows its diff from the carried
 * patch, never writes to its remote path, and rehydrates only into a local clone of the same
 * repository (same origin), found by the moved-directory search.
 */
const ORIGIN = 'git@example.com:team/gpu.git';
let box: string;
let services: HostServices;
let remoteStore: SessionStore;
let local: EndpointClient;
let remote: EndpointClient;

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { cwd, stdio: 'ignore' });
}

beforeEach(async () => {
  box = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'baton-rws-')));
  delete process.env.XDG_RUNTIME_DIR;
  services = await startHostServices({ dataDir: path.join(box, 'laptop-data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  remoteStore = await openStore(path.join(box, 'remote-data'));
  local = await connectEndpoint({ endpoint: services.endpoint, token: services.token });
  const opened = await local.request('ssh.credential.open', { host: 'devbox' });
  void local.request('ssh.credential.hold', { credentialId: opened.credentialId }, { timeoutMs: 600_000 }).catch(() => undefined);
  remote = await connectEndpoint({ endpoint: services.endpoint, token: Buffer.from(opened.token as string, 'base64') });
});
afterEach(async () => {
  remote.close();
  local.close();
  await remoteStore.close();
  await services.close();
  rmSync(box, { recursive: true, force: true });
});

async function handOffFromRemote(): Promise<{ sessionId: string; repo: string }> {
  const repo = path.join(box, 'remote-home', 'gpu');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  git(repo, 'remote', 'add', 'origin', ORIGIN);
  writeFileSync(path.join(repo, 'train.py'), 'seed = 1\n');
  git(repo, 'add', 'train.py');
  git(repo, 'commit', '-qm', 'init');
  writeFileSync(path.join(repo, 'train.py'), 'seed = 42\n');
  const landed = await landAndReadBack(remoteStore, { cwd: repo, title: 'GPU', messages: [{ role: 'user', content: 'pin the seed' }] });
  expect(await uploadSession(remote, remoteStore, landed.session.id, 'u1')).toMatchObject({ ok: true, landed: 'landed' });
  return { sessionId: landed.session.id, repo };
}

describe('a remote workspace on the laptop', () => {
  it('shows the diff from the carried patch, refuses to write to or watch the remote path, and says why', async () => {
    const { sessionId, repo } = await handOffFromRemote();
    const diff = await services.dispatch('workspace:diff', { sessionId });
    expect(diff).toMatchObject({ ok: true });
    expect(JSON.stringify(diff)).toContain('train.py');
    // No clone here: nothing to verify against, nothing offered.
    expect(await services.dispatch('workspace:status', { sessionId })).toEqual({ ok: true, value: { hasWorkspace: true, verification: null, plan: null } });
    const file = await services.dispatch('workspace:file', { sessionId, path: 'train.py', against: 'disk' });
    expect(JSON.stringify(file)).toContain('seed = 42');
    for (const request of [{ action: 'take-file', sessionId, path: 'train.py' }, { action: 'worktree', sessionId }]) {
      const answer = await services.dispatch('workspace:rehydrate', request);
      expect(answer, request.action).toMatchObject({ ok: false, error: { code: 'REMOTE_WORKSPACE' } });
      expect((answer as { error: { message: string } }).error.message).toContain('devbox');
    }
    // Even though the remote path exists on this machine (one filesystem in this test), it was not touched.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe(' M train.py\n');
    // Nothing on this machine to watch.
    expect(await services.dispatch('workspace:watch', { sessionId })).toMatchObject({ ok: true, value: { watching: 0 } });
    const command = await services.dispatch('terminal:command', { sessionId });
    expect(command).toMatchObject({ ok: true, value: { shellLine: `ssh devbox -t 'cd ${repo} && baton resume ${sessionId}'`, sshHost: 'devbox', movedTo: null } });
    // `baton resume` on the laptop prints the same line rather than a cd into a path of the remote.
    const resumed = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', '..', 'cli', 'run.ts'), 'resume', sessionId], {
      env: { ...process.env, BATON_HOME: path.join(box, 'laptop-data'), XDG_RUNTIME_DIR: '' },
      encoding: 'utf8',
    });
    expect(resumed).toContain(`Its workspace is on devbox. Continue there: ssh devbox -t 'cd ${repo} && baton resume ${sessionId}'`);
    expect(resumed).not.toContain('Continue in: cd');
  });

  it('rehydrates into a worktree of a local clone with the same origin', async () => {
    const { sessionId, repo } = await handOffFromRemote();
    const clone = path.join(box, 'laptop-code', 'gpu');
    execFileSync('git', ['clone', '-q', repo, clone]);
    git(clone, 'remote', 'set-url', 'origin', ORIGIN);
    const command = await services.dispatch('terminal:command', { sessionId });
    expect(command).toMatchObject({ ok: true, value: { movedTo: clone } });
    expect(await services.dispatch('workspace:status', { sessionId })).toMatchObject({ ok: true, value: { hasWorkspace: true, plan: { kind: 'worktree', repoRoot: clone } } });
    const target = path.join(box, 'laptop-code', 'gpu-worktree');
    const answer = await services.dispatch('workspace:rehydrate', { action: 'worktree', sessionId, targetDir: target });
    expect(answer).toMatchObject({ ok: true });
    expect(execFileSync('cat', [path.join(target, 'train.py')], { encoding: 'utf8' })).toBe('seed = 42\n');
  });
});
