import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UiEvent } from '../../shared/ui-contract.js';
import { landAndReadBack, offerSession } from '../handoff/send.js';
import { FIRST_SCREEN_ROWS } from '../importers/candidate-index-first-screen.js';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { openStore } from '../store/index.js';
import { connectEndpoint } from '../transport/client.js';
import { BATON_VERSION } from '../version.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { SESSION_VIEW_MESSAGE_LIMIT, startHostServices, type HostServices } from './host-services.js';

/**
 * The services both hosts run, started for real on a temp data directory: the store, the receiver
 * on the local socket, and the UI channels. A handoff comes in the way the CLI sends it.
 */
let root: string;
let services: HostServices;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
const savedHome = process.env.HOME;

beforeAll(() => {
  // The socket goes in <dataDir>/run; the agent scan reads a fake HOME.
  delete process.env.XDG_RUNTIME_DIR;
});
afterAll(() => {
  if (savedRuntimeDir !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
  process.env.HOME = savedHome;
});
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-hs-'));
  process.env.HOME = join(root, 'home');
  services = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await services.close().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

function recordEvents(s: HostServices) {
  const events: { event: UiEvent; payload: unknown }[] = [];
  const stop = s.onUiEvent((event, payload) => events.push({ event, payload }));
  return { events, stop };
}

describe('host services', () => {
  it('host:info names the host, version, data dir and socket', async () => {
    expect(await services.dispatch('host:info', {})).toEqual({
      ok: true,
      value: {
        host: 'browser',
        version: BATON_VERSION,
        dataDir: join(root, 'data'),
        endpoint: join(root, 'data', 'run', 'baton.sock'),
        // No Secret Service on this test's bus: the host says so, in the words the footer shows.
        encryption: { state: 'off', detail: expect.stringMatching(/^Not encrypted at rest: /) },
      },
    });
  });

  it('a CLI handoff over the real socket is accepted, announced to the UI, listed and readable', async () => {
    const { events } = recordEvents(services);
    const cli = await openStore(services.dataDir);
    try {
      const landed = await landAndReadBack(cli, { cwd: root, title: 'from the terminal', messages: [{ role: 'user', content: 'hello' }] });
      const outcome = await offerSession(landed.session.id, { store: cli, endpoint: services.endpoint, token: services.token, timeoutMs: 5_000, launch: false, dryRun: false }, landed);
      expect(outcome.category).toBe('accepted');
      const id = landed.session.id;
      // The candidates' watch of Baton's own index may also announce agents:changed (the landing wrote index.json).
      expect(events.filter((e) => e.event !== 'agents:changed')).toEqual([
        { event: 'session:changed', payload: { id, reason: 'handoff' } },
        { event: 'session:select', payload: { id } },
      ]);
      const list = await services.dispatch('sessions:list', {});
      expect(list.ok && (list.value as { id: string }[]).map((r) => r.id)).toEqual([id]);
      const detail = await services.dispatch('session:get', { id });
      expect(detail).toMatchObject({ ok: true, value: { session: { id, title: 'from the terminal', holder: { who: 'browser' } }, truncated: false } });
      const stats = await services.dispatch('stats:get', {});
      expect(stats.ok).toBe(true);
    } finally {
      await cli.close();
    }
  });

  it(`session:get sends the newest ${SESSION_VIEW_MESSAGE_LIMIT} messages and says it truncated`, async () => {
    const count = SESSION_VIEW_MESSAGE_LIMIT + 3;
    const messages = Array.from({ length: count }, (_, i) => ({ role: 'user' as const, content: `m${i}` }));
    const session = (await landAndReadBack(services.store, { cwd: root, title: 'long', messages })).session;
    const detail = await services.dispatch('session:get', { id: session.id });
    expect(detail.ok).toBe(true);
    const value = detail.ok ? (detail.value as { messages: { content: string }[]; truncated: boolean }) : null;
    expect(value!.truncated).toBe(true);
    expect(value!.messages).toHaveLength(SESSION_VIEW_MESSAGE_LIMIT);
    expect(value!.messages.at(-1)!.content).toBe(`m${count - 1}`);
    expect(value!.messages[0]!.content).toBe('m3');
    // The older pages, through session:messages: before the first sent, and after a seq (a jump).
    const older = await services.dispatch('session:messages', { id: session.id, beforeSeq: 3, limit: 10 });
    expect(older.ok && (older.value as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual(['m0', 'm1', 'm2']);
    const jump = await services.dispatch('session:messages', { id: session.id, afterSeq: 99, limit: 2 });
    expect(jump.ok && (jump.value as { messages: { seq: number }[] }).messages.map((m) => m.seq)).toEqual([100, 101]);
    expect(await services.dispatch('session:messages', { id: session.id, limit: 2 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });

  it('session:get of a short session with a damaged line in the middle sends the rest and does not say it truncated', async () => {
    const messages = Array.from({ length: 40 }, (_, i) => ({ role: 'user' as const, content: `message number ${i}` }));
    const session = (await landAndReadBack(services.store, { cwd: root, title: 'damaged', messages })).session;
    const log = join(services.dataDir, 'sessions', session.id, 'messages.jsonl');
    await writeFile(log, (await readFile(log, 'utf8')).replace('message number 19"', 'message number XX'));
    const detail = await services.dispatch('session:get', { id: session.id });
    const value = detail.ok ? (detail.value as { messages: unknown[]; truncated: boolean; session: { messageCount: number } }) : null;
    expect(value!.messages).toHaveLength(39);
    // The count still names the damaged line; nothing older exists for the view to ask for.
    expect(value!.session.messageCount).toBe(40);
    expect(value!.truncated).toBe(false);
  });

  it('session:get of an unknown id answers NOT_FOUND', async () => {
    expect(await services.dispatch('session:get', { id: 's-missing' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('agents:list finds a Claude Code session under HOME; agents:import lands it once and announces it', async () => {
    const id = '11111111-2222-4333-8444-999999999999';
    const cwd = '/home/dev/project';
    const path = await writeLog(claudeLogPath(process.env.HOME!, cwd, id), [
      claude.user({ uuid: 'u1', cwd, sessionId: id }, 'fix the flaky test'),
      claude.assistant({ uuid: 'a1', parentUuid: 'u1', cwd, sessionId: id }, 'm1', claude.text('on it')),
    ]);
    const scan = await services.dispatch('agents:list', {});
    const candidates = scan.ok ? (scan.value as { candidates: { path: string; source: string }[] }).candidates : [];
    expect(candidates.map((c) => [c.source, c.path])).toEqual([['claude', path]]);

    const { events } = recordEvents(services);
    const imported = await services.dispatch('agents:import', { source: 'claude', path });
    expect(imported).toMatchObject({ ok: true, value: { created: true } });
    const sessionId = imported.ok ? (imported.value as { sessionId: string }).sessionId : '';
    expect(events.filter((e) => e.event !== 'agents:changed')).toEqual([{ event: 'session:changed', payload: { id: sessionId, reason: 'import' } }]);
    // Once imported it is no longer offered as a candidate, and a second import lands nothing new.
    const again = await services.dispatch('agents:list', {});
    expect(again.ok && (again.value as { candidates: unknown[] }).candidates).toEqual([]);
    expect(await services.dispatch('agents:import', { source: 'claude', path })).toMatchObject({ ok: true, value: { sessionId, created: false } });

    const command = await services.dispatch('terminal:command', { sessionId });
    expect(command.ok).toBe(true);
    expect(JSON.stringify(command)).toContain(id);
  });

  it('a new host sorts agents:list before the page asks: the first request builds no order, a change builds one more', async () => {
    await services.close();
    const ids = ['33333333-2222-4333-8444-000000000001', '33333333-2222-4333-8444-000000000002', '33333333-2222-4333-8444-000000000003'];
    for (const [i, id] of ids.entries()) {
      await writeLog(claudeLogPath(process.env.HOME!, `/home/dev/p${i}`, id), [claude.user({ uuid: `u${i}`, cwd: `/home/dev/p${i}`, sessionId: id }, `task ${i}`)]);
    }
    // Folders stamped an hour ago, so the next host trusts the index this one writes (no racy folder): a warm start.
    const old = new Date(Date.now() - 3_600_000);
    for (const [i] of ids.entries()) await utimes(join(process.env.HOME!, '.claude', 'projects', `-home-dev-p${i}`), old, old);
    await utimes(join(process.env.HOME!, '.claude', 'projects'), old, old);
    services = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    await services.candidates.ready;
    await services.close();
    services = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    await services.candidates.ready;
    expect(services.candidates.partial()).toBe(false);
    // Nobody asked yet: the order is built once the first rows are in.
    const deadline = Date.now() + 5_000;
    while (services.agentList.sorts() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(services.agentList.sorts()).toBe(1);
    const first = await services.dispatch('agents:list', { offset: 0, limit: 2 });
    expect(first.ok && (first.value as { total: number }).total).toBe(3);
    expect(services.agentList.sorts()).toBe(1);
    // An import changes the store's rows: the next request sorts again, once.
    const path = (first.ok ? (first.value as { candidates: { path: string }[] }).candidates : [])[0]!.path;
    await services.dispatch('agents:import', { source: 'claude', path });
    const after = await services.dispatch('agents:list', {});
    expect(after.ok && (after.value as { total: number }).total).toBe(2);
    expect(services.agentList.sorts()).toBe(2);
  });

  it('a candidate is found by its first prompt in search:messages and previewed page by page without importing; other files are refused', async () => {
    const id = '22222222-2222-4333-8444-999999999999';
    const cwd = '/home/dev/api';
    const turns = Array.from({ length: 30 }, (_, i) => [
      claude.user({ uuid: `u${i}`, parentUuid: i === 0 ? null : `a${i - 1}`, cwd, sessionId: id }, i === 0 ? 'why does the pelican cache miss' : `question ${i}`),
      claude.assistant({ uuid: `a${i}`, parentUuid: `u${i}`, cwd, sessionId: id }, `m${i}`, claude.text(`answer ${i}`)),
    ]).flat();
    const path = await writeLog(claudeLogPath(process.env.HOME!, cwd, id), turns);
    expect(await services.dispatch('agents:list', {})).toMatchObject({ ok: true });

    const found = await services.dispatch('search:messages', { query: 'pelican cach' });
    expect(found).toMatchObject({ ok: true, value: { hits: [{ sessionId: `claude:${id}`, source: 'claude', cwd, title: 'why does the pelican cache miss' }] } });
    expect(await services.dispatch('search:messages', { query: 'pelican nowhere' })).toMatchObject({ ok: true, value: { hits: [] } });

    const newest = await services.dispatch('agents:preview', { source: 'claude', path, limit: 20 });
    expect(newest.ok).toBe(true);
    const page = newest.ok ? (newest.value as { messages: { seq: number; content: string }[]; total: number }) : { messages: [], total: 0 };
    expect(page.total).toBe(60);
    expect(page.messages.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 40 + i));
    expect(page.messages.at(-1)!.content).toBe('answer 29');
    const oldest = await services.dispatch('agents:preview', { source: 'claude', path, beforeIndex: 20, limit: 50 });
    expect(oldest.ok && (oldest.value as { messages: { content: string }[] }).messages[0]!.content).toBe('why does the pelican cache miss');
    // Nothing was imported: the store is still empty.
    expect(await services.store.list()).toEqual([]);
    // Only files of the candidate set are read.
    expect(await services.dispatch('agents:preview', { source: 'claude', path: '/etc/passwd', limit: 10 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('a new host searched before its index is read whole finds a candidate beyond the first screen', async () => {
    // More sessions than the index's first screen holds; the oldest one has the prompt searched for.
    const count = FIRST_SCREEN_ROWS + 40;
    const folders = new Set<string>();
    for (let i = 0; i < count; i++) {
      const id = `33333333-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const cwd = `/home/dev/p${i % 4}`;
      const timestamp = new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString();
      const prompt = i === 0 ? 'the oldest albatross question' : `prompt ${i}`;
      folders.add(dirname(await writeLog(claudeLogPath(process.env.HOME!, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp }, prompt)])));
    }
    // Folders older than the index: the next host trusts it, and starts from its first screen.
    const old = new Date(Date.now() - 3_600_000);
    for (const folder of folders) await utimes(folder, old, old);
    expect(await services.dispatch('agents:list', {})).toMatchObject({ ok: true, value: { total: count } });
    await services.close();
    services = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const found = await services.dispatch('search:messages', { query: 'albatross' });
    expect(found).toMatchObject({ ok: true, value: { hits: [{ sessionId: 'claude:33333333-0000-4000-8000-000000000000' }] } });
  });

  it('a second host on the same data directory is refused, and the first keeps serving', async () => {
    await expect(startHostServices({ dataDir: services.dataDir, kind: 'electron', capabilities: [] })).rejects.toMatchObject({ code: 'ALREADY_RUNNING' });
    const client = await connectEndpoint({ endpoint: services.endpoint, token: services.token });
    expect(await client.request('ping', {})).toMatchObject({ ok: true, pong: true, capabilities: [...BROWSER_HOST_CAPABILITIES] });
    client.close();
  });

  it('emitUiEvent reaches listeners until they unsubscribe', () => {
    const { events, stop } = recordEvents(services);
    services.emitUiEvent('session:select', { id: 's-1' });
    stop();
    services.emitUiEvent('session:select', { id: 's-2' });
    expect(events).toEqual([{ event: 'session:select', payload: { id: 's-1' } }]);
  });

  it('close() stops the socket and frees the data directory for the next host', async () => {
    const { endpoint, token, dataDir } = services;
    await services.close();
    await expect(connectEndpoint({ endpoint, token, timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'NO_TARGET' });
    services = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    expect(await services.dispatch('sessions:list', {})).toEqual({ ok: true, value: [] });
  });
});
