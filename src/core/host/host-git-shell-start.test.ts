import { readFile, readdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { startHostServices, type HostServices } from './host-services.js';

/**
 * The host's git shell (git-spawner.ts) is its one fork of itself: started once the candidates'
 * first rows are listed, not on the way to the UI's first answer (issue 15). Real services on a
 * temp data directory; the shell is found among this process's children (Linux /proc).
 */
let root: string;
let services: HostServices | undefined;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
const savedHome = process.env.HOME;

beforeAll(() => {
  delete process.env.XDG_RUNTIME_DIR;
});
afterAll(() => {
  if (savedRuntimeDir !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
  process.env.HOME = savedHome;
});
afterEach(async () => {
  await services?.close().catch(() => undefined);
  services = undefined;
  await rm(root, { recursive: true, force: true });
});

/** This process's child shells (`/bin/sh -c …`), by their command lines in /proc. */
async function childShells(): Promise<number> {
  let shells = 0;
  for (const task of await readdir(`/proc/${process.pid}/task`)) {
    const children = (await readFile(`/proc/${process.pid}/task/${task}/children`, 'utf8').catch(() => '')).trim().split(/\s+/).filter(Boolean);
    for (const pid of children) {
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (argv[0] === '/bin/sh' && argv[1] === '-c') shells++;
    }
  }
  return shells;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.runIf(process.platform === 'linux')('the host’s git shell', () => {
  it('starts after the first page is answered from the index’s first screen, not before', async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-git-shell-'));
    process.env.HOME = join(root, 'home');
    const dataDir = join(root, 'data');
    const folders = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const id = `44444444-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const cwd = `/home/dev/p${i % 3}`;
      folders.add(dirname(await writeLog(claudeLogPath(process.env.HOME, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString() }, `prompt ${i}`)])));
    }
    // A first host scans and writes the index; folders older than it make the next host trust it.
    services = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    expect(await services.dispatch('agents:list', {})).toMatchObject({ ok: true, value: { total: 30 } });
    await services.close();
    const old = new Date(Date.now() - 3_600_000);
    for (const folder of folders) await utimes(folder, old, old);
    await eventually(async () => (await childShells()) === 0);

    services = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const page = await services.dispatch('agents:list', { offset: 0, limit: 200 });
    expect(page).toMatchObject({ ok: true, value: { total: 30, scanning: true } });
    // Answered from the first screen: the whole read, and the shell after it, have not begun.
    // Before: the shell was spawned before startHostServices returned.
    expect(await childShells()).toBe(0);
    await eventually(async () => (await childShells()) === 1);
  });
});
