import { appendFile, mkdir, mkdtemp, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { closeSync, readFileSync } from 'node:fs';
import { QUICK_VERIFY_NEWEST } from '../importers/limits.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { openStore } from '../store/index.js';
import { scanCandidateIndex } from '../importers/scan.js';
import { candidateIndexFileFor, readCandidateIndex } from '../importers/candidate-index.js';
import { importersCacheFile, listingsDir } from '../paths.js';
import { listFromHost, openHostListing, printHostListing } from '../../cli/commands/list-host.js';
import { createAgentCandidates, type AgentCandidates, type CandidateChange } from './agent-candidates.js';
import { createCandidateMethods, renderListing, splitForFrames } from './candidate-listing.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { describeCandidateHealth, readCandidateHealth } from './candidate-doctor.js';
import { startHostServices, type HostServices } from './host-services.js';
import { LIST_JSON_VERSION } from '../importers/list-json.js';
import { CLI_JSON_VERSION } from '../../cli/output.js';

/**
 * Real folders, real watches: a session file written while the host runs must be listed within 1 s, with no rescan.
 * The 1 s is measured by bench/importers/candidates.ts; here the waits are generous (a loaded CI machine fires
 * timers and finishes writes late) and what is asserted is that it happens by watch, without a rescan.
 */
let root: string;
let home: string;
let dataDir: string;
let service: AgentCandidates | null = null;
const changes: CandidateChange[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-ac-'));
  home = join(root, 'home');
  dataDir = join(root, 'data');
  changes.length = 0;
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(root, { recursive: true, force: true });
});

function sessionLines(id: string, prompt: string, cwd = '/home/dev/a'): unknown[] {
  return [
    claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, prompt),
    claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id }, `${id}-m`, claude.text('ok')),
  ];
}
const idOf = (i: number) => `cccccccc-0000-4000-8000-${String(i).padStart(12, '0')}`;

async function until<T>(what: () => T | undefined | false | Promise<T | undefined | false>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('resident candidates', () => {
  it('starts from a trusted index at once, then the confirming full scan corrects an older session that grew and says so', async () => {
    const paths: string[] = [];
    for (let i = 0; i < QUICK_VERIFY_NEWEST + 4; i++) {
      const path = await writeLog(claudeLogPath(home, '/home/dev/a', idOf(i)), sessionLines(idOf(i), `prompt ${i}`));
      const t = Date.now() / 1000 - 7200 + i;
      await utimes(path, t, t);
      paths.push(path);
    }
    const hourAgo = Date.now() / 1000 - 3600;
    for (const dir of [join(home, '.claude', 'projects', '-home-dev-a'), join(home, '.claude', 'projects'), join(home, '.claude')]) await utimes(dir, hourAgo, hourAgo);
    await scanCandidateIndex({ env: { HOME: home }, cacheFile: importersCacheFile(dataDir) });
    // The oldest session grows while no host runs: a quick start cannot see it (not among the newest).
    await appendFile(paths[0]!, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/a', sessionId: idOf(0) }, 'one more')) + '\n');
    await utimes(join(home, '.claude', 'projects', '-home-dev-a'), hourAgo, hourAgo);

    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.ready;
    expect(service.entries()).toHaveLength(QUICK_VERIFY_NEWEST + 4);
    const countOf = () => service!.entries().find((e) => e.path === paths[0])?.candidate().messageCount;
    expect(countOf()).toBe(2); // answered from the index, before the confirming scan
    await until(() => countOf() === 3, 5_000);
    expect(changes.some((c) => c.rescan)).toBe(true);
    await service.current();
    expect(service.entries()).toHaveLength(QUICK_VERIFY_NEWEST + 4);
  });

  it('after a trusted start with nothing changed, confirms the index by stats alone: no rescan, the index not rewritten, marked verified again', async () => {
    for (let i = 0; i < 12; i++) {
      const path = await writeLog(claudeLogPath(home, `/home/dev/p${i % 3}`, idOf(i)), sessionLines(idOf(i), `prompt ${i}`, `/home/dev/p${i % 3}`));
      const t = Date.now() / 1000 - 7200 + i;
      await utimes(path, t, t);
    }
    const hourAgo = Date.now() / 1000 - 3600;
    for (const p of [0, 1, 2]) await utimes(join(home, '.claude', 'projects', `-home-dev-p${p}`), hourAgo, hourAgo);
    for (const dir of [join(home, '.claude', 'projects'), join(home, '.claude')]) await utimes(dir, hourAgo, hourAgo);
    await scanCandidateIndex({ env: { HOME: home }, cacheFile: importersCacheFile(dataDir) });
    const indexFile = join(dataDir, 'importers-candidates.idx');
    const written = (await stat(indexFile)).mtimeMs;
    const verifiedBefore = (await stat(`${indexFile}.verified`)).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));

    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.ready;
    const before = service.entries().map((e) => e.rowText()).sort();
    await until(async () => (await stat(`${indexFile}.verified`)).mtimeMs > verifiedBefore, 5_000);
    await service.current();
    expect(changes).toEqual([]);
    expect(service.health()).toMatchObject({ rescans: 0, candidates: 12 });
    expect((await stat(indexFile)).mtimeMs).toBe(written);
    expect(service.entries().map((e) => e.rowText()).sort()).toEqual(before);
  });

  it.each([
    ['a trusted start (folder mtimes put back)', true],
    ['an untrusted start (the folder changed, as adding a file does)', false],
  ])('after %s with a session added while no host ran, updates the index in place: the digest cache not read or rewritten, listed as a cold scan lists', async (_name, putBack) => {
    const paths: string[] = [];
    for (let i = 0; i < 12; i++) {
      const path = await writeLog(claudeLogPath(home, `/home/dev/p${i % 3}`, idOf(i)), sessionLines(idOf(i), `prompt ${i}`, `/home/dev/p${i % 3}`));
      const t = Date.now() / 1000 - 7200 + i;
      await utimes(path, t, t);
      paths.push(path);
    }
    const hourAgo = Date.now() / 1000 - 3600;
    const ageFolders = async () => {
      for (const p of [0, 1, 2]) await utimes(join(home, '.claude', 'projects', `-home-dev-p${p}`), hourAgo, hourAgo);
      for (const dir of [join(home, '.claude', 'projects'), join(home, '.claude')]) await utimes(dir, hourAgo, hourAgo);
    };
    await ageFolders();
    await scanCandidateIndex({ env: { HOME: home }, cacheFile: importersCacheFile(dataDir) });
    const cacheFile = importersCacheFile(dataDir);
    const cacheMtime = (await stat(cacheFile)).mtimeMs;
    const indexFile = join(dataDir, 'importers-candidates.idx');
    const written = (await stat(indexFile)).mtimeMs;
    // Not in the index, so the quick start (which checks the indexed files) cannot see it: only the confirm can.
    const added = await writeLog(claudeLogPath(home, '/home/dev/p1', idOf(50)), sessionLines(idOf(50), 'added while down', '/home/dev/p1'));
    const t = Date.now() / 1000 - 7200 - 10;
    await utimes(added, t, t);
    if (putBack) await ageFolders();

    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.ready;
    await until(() => changes.length > 0, 5_000);
    await service.current();
    expect(changes).toEqual([{ added: 1, updated: 0, removed: 0, rescan: true }]);
    expect(service.health()).toMatchObject({ rescans: 0, candidates: 13 });
    expect((await stat(cacheFile)).mtimeMs).toBe(cacheMtime);
    expect((await stat(indexFile)).mtimeMs).toBeGreaterThan(written);
    const hosted = service.entries().map((e) => e.rowText()).sort();
    expect(hosted.some((r) => r.includes('added while down'))).toBe(true);
    const cold = await scanCandidateIndex({ env: { HOME: home }, cacheFile: join(root, 'cold', 'importers-cache.json') });
    expect(hosted).toEqual(cold.entries.map((e) => e.rowText()).sort());
  });

  it('lists a new session file and a grown one by watch, re-reading only those files', async () => {
    for (let i = 0; i < 3; i++) await writeLog(claudeLogPath(home, '/home/dev/a', idOf(i)), sessionLines(idOf(i), `prompt ${i}`));
    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.ready;
    expect(service.entries()).toHaveLength(3);
    expect(service.health()).toMatchObject({ mode: 'watching', rescans: 0 });

    const fresh = await writeLog(claudeLogPath(home, '/home/dev/b', idOf(9)), sessionLines(idOf(9), 'written while the host runs', '/home/dev/b'));
    const found = await until(() => service!.entries().find((e) => e.path === fresh), 10_000);
    expect(found.candidate().title).toBe('written while the host runs');
    expect(changes.at(-1)).toMatchObject({ added: 1, rescan: false });

    const grown = service.entries().find((e) => e.candidate().title === 'prompt 1')!.path;
    await appendFile(grown, JSON.stringify(claude.user({ uuid: 'late', cwd: '/home/dev/a', sessionId: idOf(1) }, 'one more')) + '\n');
    await until(() => service!.entries().find((e) => e.path === grown)?.candidate().messageCount === 3, 10_000);
    expect(service.health()).toMatchObject({ mode: 'watching', rescans: 0 });
    expect(service.health().watchedUpdates).toBeGreaterThanOrEqual(2);

    await rm(fresh);
    await until(() => !service!.entries().some((e) => e.path === fresh), 10_000);
  });

  it('writes watched changes to the index once the watches have been quiet, or at the latest after the max delay of a busy watch', async () => {
    await writeLog(claudeLogPath(home, '/home/dev/a', idOf(0)), sessionLines(idOf(0), 'prompt 0'));
    // A quiet window and a max delay far longer than a stall of a loaded machine (a late timer, a
    // slow fsync) between two changes 100 ms apart: only the watches' own quiet or busyness decides.
    service = createAgentCandidates({ dataDir, env: { HOME: home }, debounceMs: 20, persistDelayMs: 3_000, persistMaxDelayMs: 6_000 });
    await service.ready;
    const indexFile = candidateIndexFileFor(importersCacheFile(dataDir));
    const writtenAt = async () => (await stat(indexFile)).mtimeMs;
    const start = await writtenAt();
    const indexed = async () => (await readCandidateIndex(indexFile))?.entries.length ?? 0;

    // A burst of changes 100 ms apart while `going`: none written while it lasts (the write would hold the event loop in it).
    const burst = async (from: number, going: () => boolean) => {
      let i = from;
      for (; going(); i++) {
        await writeLog(claudeLogPath(home, '/home/dev/a', idOf(i)), sessionLines(idOf(i), `prompt ${i}`));
        await new Promise((r) => setTimeout(r, 100));
      }
      return i;
    };
    const end = Date.now() + 2_000; // well inside the max delay
    const written = await burst(1, () => Date.now() < end);
    expect(await writtenAt()).toBe(start);
    await until(async () => (await indexed()) === written, 15_000);

    // A watch that is never quiet is written anyway, within the max delay of its first change: the
    // burst goes on until the write is seen.
    const busyStart = await writtenAt();
    let seen = false;
    const busy = burst(written, () => !seen);
    try {
      await until(async () => (await writtenAt()) !== busyStart && (await indexed()) > written, 25_000);
    } finally {
      seen = true;
      await busy;
    }
  }, 60_000);

  it('a Codex day folder created while the host runs is watched, and its rollout listed', async () => {
    await mkdir(join(home, '.codex', 'sessions'), { recursive: true });
    service = createAgentCandidates({ dataDir, env: { HOME: home } });
    await service.ready;
    const id = '019b0000-0000-7000-8000-00000000abcd';
    const path = join(home, '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T10-00-00-${id}.jsonl`);
    await mkdir(join(home, '.codex', 'sessions', '2026', '11', '30'), { recursive: true });
    await writeLog(path, [
      { timestamp: '2026-11-30T10:00:00Z', type: 'session_meta', payload: { id, timestamp: '2026-11-30T10:00:00Z', cwd: '/home/dev/c', cli_version: '0.77.0' } },
      { timestamp: '2026-11-30T10:00:01Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'codex prompt' }] } },
    ]);
    const found = await until(() => service!.entries().find((e) => e.path === path), 10_000);
    expect(found.candidate().title).toBe('codex prompt');
  });

  it('an overflowing watch falls back to a rescan, says so in its health, and loses nothing', async () => {
    await mkdir(join(home, '.claude', 'projects'), { recursive: true });
    service = createAgentCandidates({ dataDir, env: { HOME: home }, maxPending: 3, restartDelayMs: 300, onChange: (c) => changes.push(c) });
    await service.ready;
    for (let i = 0; i < 6; i++) await writeLog(claudeLogPath(home, '/home/dev/a', idOf(i)), sessionLines(idOf(i), `burst ${i}`));
    await until(() => service!.entries().length === 6 && service!.health().rescans > 0, 10_000);
    const health = service.health();
    expect(health.lastTrouble).toMatch(/more than 3 changes/);
    expect(health.troubleAt).not.toBeNull();
    expect(changes.some((c) => c.rescan)).toBe(true);
    // The watch is back after the restart delay: a later file arrives by watch again.
    await until(() => service!.health().mode === 'watching', 10_000);
    const late = await writeLog(claudeLogPath(home, '/home/dev/a', idOf(42)), sessionLines(idOf(42), 'after the restart'));
    await until(() => service!.entries().some((e) => e.path === late), 10_000);
  });
});

describe('candidates.list over the socket', () => {
  let host: HostServices;
  const saved = { home: process.env.HOME, runtime: process.env.XDG_RUNTIME_DIR };
  beforeEach(async () => {
    process.env.HOME = home;
    delete process.env.XDG_RUNTIME_DIR;
    for (let i = 0; i < 40; i++) await writeLog(claudeLogPath(home, `/home/dev/p${i % 5}`, idOf(i)), sessionLines(idOf(i), `prompt ${i} "quoted" ✓`, `/home/dev/p${i % 5}`));
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  });
  afterEach(async () => {
    await host.close();
    process.env.HOME = saved.home;
    if (saved.runtime !== undefined) process.env.XDG_RUNTIME_DIR = saved.runtime;
  });

  it('prints what the CLI\'s own scan prints, in parts when it is bigger than a frame, with filters and limit', async () => {
    const viaHost = await listFromHost({ agents: true, filter: {} }, dataDir);
    expect(viaHost).not.toBeNull();
    const store = await openStore(dataDir);
    const local = await scanCandidateIndex({ env: { HOME: home }, cacheFile: importersCacheFile(dataDir) });
    const expected = await renderListing(await store.list(), local.entries, { agents: true, filter: {} }, null, LIST_JSON_VERSION);
    await store.close();
    const strip = (text: string) => {
      const { agentScan: _a, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(strip(viaHost!)).toEqual(strip(expected));
    expect((JSON.parse(viaHost!) as { total: number }).total).toBe(40);

    const limited = JSON.parse((await listFromHost({ agents: true, filter: { cwd: '/home/dev/p3' }, limit: 2 }, dataDir))!) as { groups: Array<{ cwd: string; sessions: unknown[] }>; total: number; shown: number };
    expect(limited).toMatchObject({ total: 8, shown: 2 });
    expect(limited.groups.map((g) => g.cwd)).toEqual(['/home/dev/p3']);
    expect(LIST_JSON_VERSION).toBe(CLI_JSON_VERSION);

    // A repeated listing is served from the host's render cache, and a change invalidates it.
    expect(await listFromHost({ agents: true, filter: {} }, dataDir)).toBe(viaHost);
    await writeLog(claudeLogPath(home, '/home/dev/p0', idOf(77)), sessionLines(idOf(77), 'late arrival', '/home/dev/p0'));
    const after = await until(async () => {
      const text = (await listFromHost({ agents: true, filter: {} }, dataDir))!;
      return text.includes(idOf(77)) ? text : undefined;
    }, 2_000);
    expect((JSON.parse(after) as { total: number }).total).toBe(41);
  });

  it('baton doctor reads the watch health from the running host, and says when it fell back to a rescan', async () => {
    await host.candidates.ready;
    const health = await readCandidateHealth(dataDir);
    expect(health).toMatchObject({ mode: 'watching', candidates: 40, rescans: 0 });
    expect(describeCandidateHealth(health)).toMatchObject({ ok: true, detail: expect.stringMatching(/^watching \d+ folders, 40 candidates/) });
    const failed = describeCandidateHealth({ ...health!, mode: 'rescan', lastTrouble: 'cannot watch /x (ENOSPC)', troubleAt: '2026-11-30T12:00:00.000Z', rescans: 1 });
    expect(failed).toMatchObject({ ok: false, detail: expect.stringContaining('fell back to rescanning: cannot watch /x (ENOSPC)') });
    expect(failed.fix).toMatch(/max_user_watches/);
    expect(describeCandidateHealth(null)).toMatchObject({ ok: true, detail: expect.stringContaining('no host running') });
  });

  it('splits a listing into parts that each fit a frame and join back exactly, even with escapes and surrogate pairs', () => {
    const text = `{"a":"${'\u0001😀"\\x'.repeat(40_000)}"}`;
    const parts = splitForFrames(text, 50_000);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.join('')).toBe(text);
    for (const p of parts) expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThan(256 * 1024);
  });

  it('a listing bigger than a frame comes as a file in the data dir, streamed to stdout; without the file, as parts, byte for byte the same', async () => {
    // ~1,000 rows: several frames' worth of JSON.
    for (let i = 100; i < 1_100; i++) await writeLog(claudeLogPath(home, `/home/dev/big${i % 7}`, idOf(i)), sessionLines(idOf(i), `a longer prompt number ${i} ${'x'.repeat(120)}`, `/home/dev/big${i % 7}`));
    await until(async () => ((JSON.parse((await listFromHost({ agents: true, filter: {}, limit: 0 }, dataDir))!) as { total: number }).total === 1_040 ? true : undefined), 10_000);
    const listing = await openHostListing({ agents: true, filter: {} }, dataDir);
    expect(listing).not.toBeNull();
    if (listing === null || !('fd' in listing)) throw new Error('expected a rendered file');
    const files = await readdir(listingsDir(dataDir));
    expect(files).toHaveLength(1);
    expect((await stat(join(listingsDir(dataDir), files[0]!))).mode & 0o777).toBe(0o600);
    const viaFile = readFileSync(listing.fd, 'utf8');
    closeSync(listing.fd);
    expect(viaFile.length).toBeGreaterThan(256 * 1024);

    const chunks: Buffer[] = [];
    const sink = { write: (c: string | Uint8Array, done?: (e?: Error | null) => void) => (chunks.push(Buffer.from(c)), done?.(), true) };
    expect(await printHostListing({ agents: true, filter: {} }, sink, dataDir)).toBe(true);
    expect(chunks.length).toBeGreaterThan(0);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(viaFile);

    // Asked with fileFirst (as the CLI asks), the answer carries the file and no first part.
    const methods = createCandidateMethods({ candidates: host.candidates, listRows: () => host.store.list(), cliVersion: LIST_JSON_VERSION, listingDir: join(home, 'direct-listings') });
    const call = (params: unknown) => methods['candidates.list']!({ id: 'r1', method: 'candidates.list', params } as never, {} as never);
    const fileFirst = await call({ fileFirst: true });
    expect(fileFirst).toMatchObject({ ok: true, text: '' });
    expect(typeof fileFirst.file).toBe('string');
    expect((await call({})).text).toBe(viaFile.slice(0, ((await call({})).text as string).length));

    // The file gone (a host that replaced it, a folder cleaned): the parts give the same document.
    await rm(join(listingsDir(dataDir), files[0]!));
    const viaParts = await openHostListing({ agents: true, filter: {} }, dataDir);
    expect(viaParts && 'text' in viaParts ? viaParts.text : null).toBe(viaFile);
    expect((JSON.parse(viaFile) as { total: number }).total).toBe(1_040);
  });

  it('agents:list answers pages, newest first, with the total and a version that changes with the set', async () => {
    await host.candidates.ready;
    const whole = await host.dispatch('agents:list', {});
    const first = await host.dispatch('agents:list', { offset: 0, limit: 15 });
    const rest = await host.dispatch('agents:list', { offset: 15, limit: 100 });
    if (!whole.ok || !first.ok || !rest.ok) throw new Error('agents:list failed');
    type Page = { candidates: Array<{ externalId: string; updatedAt: string }>; total: number; version: string };
    const [w, f, r] = [whole.value as Page, first.value as Page, rest.value as Page];
    expect(w.total).toBe(40);
    expect(f).toMatchObject({ total: 40, version: w.version });
    expect(f.candidates).toHaveLength(15);
    expect([...f.candidates, ...r.candidates].map((c) => c.externalId)).toEqual(w.candidates.map((c) => c.externalId));
    const times = w.candidates.map((c) => c.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect((await host.dispatch('agents:list', { limit: 0 })).ok).toBe(false);
    await writeLog(claudeLogPath(home, '/home/dev/p1', idOf(88)), sessionLines(idOf(88), 'one more', '/home/dev/p1'));
    const after = await until(async () => {
      const a = await host.dispatch('agents:list', { offset: 0, limit: 1 });
      return a.ok && (a.value as Page).total === 41 ? (a.value as Page) : undefined;
    }, 2_000);
    expect(after.version).not.toBe(w.version);
  });

  it('refuses bad parameters and unknown listings with a code', async () => {
    await host.candidates.ready;
    const methods = createCandidateMethods({ candidates: host.candidates, listRows: () => host.store.list(), cliVersion: LIST_JSON_VERSION });
    const call = (params: unknown) => methods['candidates.list']!({ id: 'r1', method: 'candidates.list', params } as never, {} as never);
    expect(await call({ limit: -1 })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(await call({ source: 'vim' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(await call({ listing: 'nope', part: 1 })).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    expect(await methods['candidates.health']!({ id: 'r2', method: 'candidates.health', params: {} } as never, {} as never)).toMatchObject({ ok: true, health: { mode: 'watching' } });
  });
});

describe("the watch of Baton's own index", () => {
  it('announces index.json replaced by another process (an import, a handoff), and none of the data directory\'s other files', async () => {
    await mkdir(dataDir, { recursive: true });
    service = createAgentCandidates({ dataDir, env: { HOME: home }, onChange: (c) => changes.push(c) });
    await service.ready;
    await new Promise((r) => setTimeout(r, 300)); // anything the start itself wrote has been reported
    changes.length = 0;
    // What a hosted handoff writes beside it: an event line, a receipt's temp file, the index's own temp file.
    await appendFile(join(dataDir, 'events.jsonl'), '{}\n');
    await writeFile(join(dataDir, '.receipt.tmp'), '{}');
    await writeFile(join(dataDir, '.index.json.tmp'), '{"version":1}');
    await new Promise((r) => setTimeout(r, 400));
    expect(changes).toEqual([]);
    await rename(join(dataDir, '.index.json.tmp'), join(dataDir, 'index.json'));
    await until(() => changes.length > 0, 5_000);
    expect(changes).toEqual([{ added: 0, updated: 0, removed: 0, rescan: false }]);
  });
});
