import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCAN_FIRST_ROWS, SCAN_READ_BATCH } from '../importers/limits.js';
import { candidateIndexFileFor } from '../importers/candidate-index.js';
import { importersCacheFile } from '../paths.js';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { createAgentCandidates, type AgentCandidates, type CandidateChange } from './agent-candidates.js';

/**
 * A host on a fresh data directory (no index to trust): the UI is answered the rows the first
 * scan has read so far (redacted, marked partial), long before the scan ends; the CLI's listing
 * still waits for all of them.
 */
let root: string;
let home: string;
let service: AgentCandidates | null = null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-acp-'));
  home = join(root, 'home');
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(root, { recursive: true, force: true });
});

const FILES = SCAN_READ_BATCH * 2 + 40;
const TOKEN = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
const idOf = (i: number) => `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;

async function writeSessions(): Promise<void> {
  for (let i = 0; i < FILES; i++) {
    const id = idOf(i);
    // Every prompt holds a token: whatever the partial list shows must be redacted already.
    await writeLog(claudeLogPath(home, '/home/dev/a', id), [
      claude.user({ uuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `prompt ${i} with ${TOKEN}`),
      claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `${id}-m`, claude.text('ok')),
    ]);
  }
}

describe('first scan on a fresh data directory', () => {
  it('answers the UI the redacted rows read so far, marked partial, then all of them with a change', async () => {
    await writeSessions();
    const changes: CandidateChange[] = [];
    service = createAgentCandidates({ dataDir: join(root, 'data'), env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.current({ partialOk: true });
    expect(service.partial()).toBe(true);
    const early = service.entries().map((e) => e.candidate());
    expect(early.length).toBeGreaterThanOrEqual(SCAN_FIRST_ROWS);
    expect(early.length).toBeLessThan(FILES);
    for (const c of early) expect(c.title).toMatch(/^prompt \d+ with \[REDACTED:github\]$/);
    expect(changes[0]).toEqual({ added: early.length, updated: 0, removed: 0, rescan: false });

    // The CLI's path waits for the whole list.
    await service.current();
    expect(service.partial()).toBe(false);
    const all = service.entries().map((e) => e.candidate());
    expect(all).toHaveLength(FILES);
    expect(all.some((c) => c.title.includes(TOKEN))).toBe(false);
    // The end of the scan is announced too, so the UI fetches the complete list.
    expect(changes.at(-1)).toMatchObject({ rescan: true });
  });

  it('a start from an index it cannot trust (verified too long ago) answers the UI its rows at once, marked partial, then the confirmed list', async () => {
    await writeSessions();
    const dataDir = join(root, 'data');
    service = createAgentCandidates({ dataDir, env: { HOME: home } });
    await service.ready;
    await service.close();
    // The last full scan confirmed the index long ago: a quick start declines it.
    await writeFile(`${candidateIndexFileFor(importersCacheFile(dataDir))}.verified`, '1');
    const changes: CandidateChange[] = [];
    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.current({ partialOk: true });
    expect(service.partial()).toBe(true);
    expect(service.entries()).toHaveLength(FILES);
    await service.current();
    expect(service.partial()).toBe(false);
    expect(service.entries()).toHaveLength(FILES);
    expect(changes.at(-1)).toMatchObject({ rescan: true });
  });

  it('a start from an untrusted index serves its rows and holds the scan back for the UI\'s first pages; a CLI listing starts it at once', async () => {
    await writeSessions();
    const dataDir = join(root, 'data');
    service = createAgentCandidates({ dataDir, env: { HOME: home } });
    await service.ready;
    await service.close();
    const indexFile = candidateIndexFileFor(importersCacheFile(dataDir));
    await writeFile(`${indexFile}.verified`, '1');
    const written = (await stat(indexFile)).mtimeMs;
    const changes: CandidateChange[] = [];
    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c), confirmDelayMs: 60_000 });
    await service.current({ partialOk: true });
    expect(service.partial()).toBe(true);
    // A scan of these few files takes well under this; held back, nothing has moved.
    await new Promise((r) => setTimeout(r, 400));
    expect(service.partial()).toBe(true);
    expect(changes).toEqual([]);
    expect((await stat(indexFile)).mtimeMs).toBe(written);
    // The CLI's listing needs every row confirmed: it does not wait for the delay.
    const started = Date.now();
    await service.current();
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(service.partial()).toBe(false);
    expect(service.entries()).toHaveLength(FILES);
    expect(changes.at(-1)).toMatchObject({ rescan: true });
  });

  it('a first scan that fails after listing rows leaves them, no longer marked partial, and says so', async () => {
    await writeSessions();
    // The data directory is a file: the scan reads every session, then cannot write its caches.
    const dataDir = join(root, 'data-is-a-file');
    await writeFile(dataDir, 'not a directory');
    const changes: CandidateChange[] = [];
    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.current({ partialOk: true });
    expect(service.partial()).toBe(true);
    await service.ready.catch(() => undefined);
    await until(() => !service!.partial());
    expect(service.entries().length).toBeGreaterThanOrEqual(SCAN_FIRST_ROWS);
    expect(changes.at(-1)).toEqual({ added: 0, updated: 0, removed: 0, rescan: true });
  });
});

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
