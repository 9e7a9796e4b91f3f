import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landAndReadBack } from '../handoff/send.js';
import { BROWSER_HOST_CAPABILITIES, DESKTOP_CAPABILITIES } from './capabilities.js';
import { startHostServices, type HostServices } from './host-services.js';

/** The watcher through the host's UI contract: a real repository, real files, the host's own store. */
let root: string;
let repo: string;
let host: HostServices | null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-watch-host-'));
  repo = join(root, 'repo');
  await mkdir(join(repo, 'src'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  await writeFile(join(repo, 'src', 'a.ts'), 'export const a = 1;\n');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'first');
  await writeFile(join(repo, 'src', 'a.ts'), 'export const a = 2; // changed\n');
  host = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await host?.close();
  await rm(root, { recursive: true, force: true });
});

describe('workspace:watch through the host', () => {
  it('both hosts declare file-watcher; a watched file changed on disk emits workspace:drift; unwatch and close stop it', async () => {
    expect(BROWSER_HOST_CAPABILITIES).toContain('file-watcher');
    expect(DESKTOP_CAPABILITIES).toContain('file-watcher');
    const session = (await landAndReadBack(host!.store, { cwd: repo, title: 't', messages: [{ role: 'user', content: 'change a' }] })).session;
    const drift: unknown[] = [];
    host!.onUiEvent((event, payload) => event === 'workspace:drift' && drift.push(payload));
    const started = await host!.dispatch('workspace:watch', { sessionId: session.id });
    expect(started).toMatchObject({ ok: true, value: { watching: 1 } });
    const watchId = (started as { value: { watchId: string } }).value.watchId;
    expect(await host!.dispatch('workspace:watch', { sessionId: session.id, renew: watchId })).toMatchObject({ ok: true, value: { watchId, watching: 1 } });

    await writeFile(join(repo, 'src', 'a.ts'), 'export const a = 3; // edited elsewhere\n');
    await expect.poll(() => drift, { timeout: 5_000 }).toEqual([{ sessionId: session.id, paths: ['src/a.ts'] }]);
    const status = await host!.dispatch('workspace:status', { sessionId: session.id });
    expect(status).toMatchObject({ ok: true, value: { verification: { status: 'partial' } } });

    expect(await host!.dispatch('workspace:unwatch', { watchId })).toEqual({ ok: true, value: { stopped: true } });
    await writeFile(join(repo, 'src', 'a.ts'), 'export const a = 4;\n');
    await new Promise((r) => setTimeout(r, 400));
    expect(drift).toHaveLength(1);
    // A session without a git workspace: nothing to watch, no error.
    const plain = (await landAndReadBack(host!.store, { cwd: root, title: 'no git', messages: [{ role: 'user', content: 'x' }] })).session;
    expect(await host!.dispatch('workspace:watch', { sessionId: plain.id })).toMatchObject({ ok: true, value: { watching: 0 } });
    await host!.close();
    host = null;
  });
});
