import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { candidateIndexFileFor, readCandidateIndex } from '../importers/candidate-index.js';
import { FIRST_SCREEN_ROWS } from '../importers/candidate-index-first-screen.js';
import { importersCacheFile } from '../paths.js';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { createAgentCandidates, type AgentCandidates, type CandidateChange } from './agent-candidates.js';
import { agentListPage, firstScreenPage, orderAgentEntries } from './agent-list-page.js';

/**
 * A new host with a warm index answers the UI's first page from the index's first screen, before
 * it reads the rest of the index (the columns' parse, ~95 ms at 20,000 sessions); that read waits
 * for the answer, and the page then hears of the whole set (issue 15, sixteenth sitting).
 */
let root: string;
let home: string;
let service: AgentCandidates | null = null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-acfs-'));
  home = join(root, 'home');
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(root, { recursive: true, force: true });
});

const FILES = FIRST_SCREEN_ROWS + 60;
const idOf = (i: number) => `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** FILES sessions over 5 directories, their times out of the files' order; folders stamped an hour ago so the index is trusted. */
async function writeSessions(): Promise<void> {
  const folders = new Set<string>();
  for (let i = 0; i < FILES; i++) {
    const id = idOf(i);
    const cwd = `/home/dev/p${i % 5}`;
    const timestamp = new Date(Date.UTC(2026, 10, 1) + ((i * 53) % 211) * 60_000).toISOString();
    const path = await writeLog(claudeLogPath(home, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp }, `prompt ${i}`)]);
    folders.add(dirname(path));
  }
  const old = new Date(Date.now() - 3_600_000);
  for (const folder of folders) await utimes(folder, old, old);
  await utimes(join(home, '.claude', 'projects'), old, old);
}

/** A host's index written, then a new host on it. */
async function warmHost(options: { onChange?: (c: CandidateChange) => void; firstScreenHoldMs?: number; persistDelayMs?: number; debounceMs?: number } = {}): Promise<AgentCandidates> {
  await writeSessions();
  const dataDir = join(root, 'data');
  const first = createAgentCandidates({ dataDir, env: { HOME: home } });
  await first.ready;
  await first.close();
  return createAgentCandidates({ dataDir, env: { HOME: home }, ...options });
}

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a new host answers the first page from the index first screen', () => {
  it('before reading the rest of the index, the same rows and total the whole order gives; the whole read follows that answer and is announced', async () => {
    const changes: CandidateChange[] = [];
    service = await warmHost({ onChange: (c) => changes.push(c), firstScreenHoldMs: 60_000 });
    const screen = service.firstScreen();
    expect(screen?.total).toBe(FILES);
    // Held: nothing of the index's columns read, however long the page takes to ask.
    await new Promise((r) => setTimeout(r, 300));
    expect(service.entries()).toHaveLength(0);
    const page = await firstScreenPage(service, async () => [], 0, FIRST_SCREEN_ROWS);
    expect(page).toMatchObject({ total: FILES, scanning: true, stats: { files: FILES } });
    expect(page!.candidates).toHaveLength(FIRST_SCREEN_ROWS);
    // The answer ends the wait (not the hold's 60 s): the whole index comes in, and the page hears of it.
    await until(() => service!.entries().length === FILES);
    expect(service.firstScreen()).toBeNull();
    await until(() => changes.length > 0);
    expect(changes[0]).toEqual({ added: 0, updated: 0, removed: 0, rescan: false });
    const order = { key: 'k', version: 'v', sorted: orderAgentEntries(service.entries(), new Set()), stats: { files: FILES, ms: 0 } };
    const whole = agentListPage(order, 0, FIRST_SCREEN_ROWS);
    expect(page!.candidates).toEqual(whole.candidates);
    expect(whole.total).toBe(page!.total);
  });

  it('leaves to the whole order what the first screen cannot answer exactly; a caller that needs entries ends the wait', async () => {
    service = await warmHost({ firstScreenHoldMs: 60_000 });
    expect(service.firstScreen()).not.toBeNull();
    expect(await firstScreenPage(service, async () => [], FIRST_SCREEN_ROWS, 50)).toBeNull();
    expect(await firstScreenPage(service, async () => [], 0, undefined)).toBeNull();
    expect(await firstScreenPage(service, async () => [], 0, FIRST_SCREEN_ROWS + 1)).toBeNull();
    // An imported session hides its candidate: which, and the total, only the whole index says.
    expect(await firstScreenPage(service, async () => [{ id: 'imp-0123456789abcdef' }], 0, 50)).toBeNull();
    // A smaller first page is a prefix of the screen.
    const small = await firstScreenPage(service, async () => [{ id: 's-own-session' }], 0, 50);
    expect(small!.candidates).toHaveLength(50);
    const started = Date.now();
    await service.current({ partialOk: true });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(service.entries()).toHaveLength(FILES);
    expect(await firstScreenPage(service, async () => [], 0, 50)).toBeNull();
  });

  it('a session written while the whole read waits is listed after it, and never shrinks the index on disk to what the watch saw', async () => {
    service = await warmHost({ firstScreenHoldMs: 60_000, persistDelayMs: 50, debounceMs: 20 });
    await until(() => service!.firstScreen() !== null);
    // Watches are up before the index's whole read: a Claude Code turn ends while the host waits.
    const id = 'ffffffff-0000-4000-8000-000000000001';
    const cwd = '/home/dev/p1';
    await writeLog(claudeLogPath(home, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp: new Date().toISOString() }, 'written during the wait')]);
    // Longer than the watch's debounce and the persist delay: a write of what the watch saw would be on disk.
    await new Promise((r) => setTimeout(r, 800));
    const onDisk = await readCandidateIndex(candidateIndexFileFor(importersCacheFile(join(root, 'data'))));
    expect(onDisk?.entries.length).toBe(FILES);
    await service.current({ partialOk: true });
    await until(() => service!.entries().some((e) => e.path.includes(id)));
    expect(service.entries()).toHaveLength(FILES + 1);
  });
});
