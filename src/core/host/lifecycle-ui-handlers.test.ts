import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UiEvent } from '../../shared/ui-contract.js';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { claude, claudeLogPath, writeLog } from '../importers/test-fixtures/build-logs.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { startHostServices, type HostServices } from './host-services.js';
import { openStore } from '../store/index.js';
import { exportSession } from '../lifecycle/export-session.js';
import { importBundle } from '../lifecycle/import-bundle.js';

/** The UI's archive / delete / purge through the real host services (the same dispatcher both hosts bind). */
let root: string;
let services: HostServices;
const savedRuntime = process.env.XDG_RUNTIME_DIR;
const savedHome = process.env.HOME;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-lifecycle-ui-'));
  delete process.env.XDG_RUNTIME_DIR;
  process.env.HOME = join(root, 'home');
  services = await startHostServices({ dataDir: join(root, 'data'), kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await services.close().catch(() => undefined);
  if (savedRuntime !== undefined) process.env.XDG_RUNTIME_DIR = savedRuntime;
  process.env.HOME = savedHome;
  await rm(root, { recursive: true, force: true });
});

async function ok<T>(value: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<T> {
  const answer = await value;
  if (!answer.ok) throw new Error(JSON.stringify(answer.error));
  return answer.value as T;
}

describe('lifecycle UI channels', () => {
  it('archive and unarchive a group, delete after the plan, and the deleted session leaves the search index', async () => {
    const events: Array<{ event: UiEvent; payload: unknown }> = [];
    services.onUiEvent((event, payload) => events.push({ event, payload }));
    const store = services.store;
    const make = async (title: string) => (await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title, source: { tool: 'baton' }, holder: 'terminal' }, conversation(4).map((m, i) => ({ ...m, content: `${title} zebrafish ${i}` })))).id;
    const a = await make('alpha');
    const b = await make('beta');

    expect(await ok(services.dispatch('sessions:archive', { ids: [a, b] }))).toEqual({ archived: [a, b] });
    expect(await ok<unknown[]>(services.dispatch('sessions:list', {}))).toEqual([]);
    expect((await ok<Array<{ archived: boolean }>>(services.dispatch('sessions:list', { includeArchived: true }))).every((r) => r.archived)).toBe(true);
    await ok(services.dispatch('sessions:unarchive', { ids: [a] }));
    expect((await ok<Array<{ id: string }>>(services.dispatch('sessions:list', {}))).map((r) => r.id)).toEqual([a]);

    const before = await ok<{ hits: Array<{ sessionId: string }> }>(services.dispatch('search:messages', { query: 'zebrafish' }));
    expect(before.hits.map((h) => h.sessionId).sort()).toEqual([a, b].sort());
    const [plan] = await ok<Array<{ title: string; messageCount: number; bytes: number }>>(services.dispatch('sessions:delete-plan', { ids: [a] }));
    expect(plan).toMatchObject({ title: 'alpha', messageCount: 4 });
    expect((await services.dispatch('sessions:delete', { ids: [a] })).ok).toBe(false); // no confirmation, no delete
    expect(await ok(services.dispatch('sessions:delete', { ids: [a], confirmed: true }))).toMatchObject({ deleted: [{ sessionId: a }], refused: [] });
    expect(existsSync(store.sessionDir(a))).toBe(false);
    expect(events).toContainEqual({ event: 'session:changed', payload: { id: a, reason: 'deleted' } });
    const after = await ok<{ hits: Array<{ sessionId: string }> }>(services.dispatch('search:messages', { query: 'zebrafish' }));
    expect(after.hits.map((h) => h.sessionId)).toEqual([b]);

    const retention = await ok<{ live: { sessions: number }; archived: { sessions: number } }>(services.dispatch('retention:get', {}));
    expect(retention).toMatchObject({ live: { sessions: 0 }, archived: { sessions: 1 } });
    const purgePlan = await ok<{ items: Array<{ kind: string }>; bytes: number }>(services.dispatch('data:purge-plan', {}));
    expect(purgePlan.items.some((i) => i.kind === 'archived')).toBe(true);
    expect(await ok(services.dispatch('data:purge', { confirmed: true }))).toMatchObject({ bytes: purgePlan.bytes });
    expect(await ok<unknown[]>(services.dispatch('sessions:list', { includeArchived: true }))).toEqual([]);
  });

  it('baton import offers to the running host, whose UI is told to open the imported session', async () => {
    const events: Array<{ event: UiEvent; payload: unknown }> = [];
    services.onUiEvent((event, payload) => events.push({ event, payload }));
    const elsewhere = await openStore(join(root, 'elsewhere'));
    const session = await elsewhere.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 'carried over', source: { tool: 'baton' }, holder: 'terminal' }, conversation(6));
    const { bytes } = await exportSession(elsewhere, join(root, 'elsewhere'), session.id, { kind: 'none' });
    await elsewhere.close();
    const cli = await openStore(services.dataDir);
    try {
      const imported = await importBundle(bytes, { store: cli, dataDir: services.dataDir, trust: true, host: { endpoint: services.endpoint, token: services.token } });
      expect(imported).toMatchObject({ ok: true, status: 'accepted', sessionId: session.id, answer: { epoch: 2 } });
      expect(events).toContainEqual({ event: 'session:select', payload: { id: session.id } });
      expect((await services.store.getSession(session.id)).holder.who).toBe('browser');
    } finally {
      await cli.close();
    }
  });

  it('an archived imported session does not bring its Claude Code candidate back', async () => {
    const id = '11111111-2222-4333-8444-aaaaaaaaaaaa';
    const cwd = '/home/dev/project';
    const path = await writeLog(claudeLogPath(process.env.HOME!, cwd, id), [claude.user({ uuid: 'u1', cwd, sessionId: id }, 'fix the flaky test')]);
    const imported = await ok<{ sessionId: string }>(services.dispatch('agents:import', { source: 'claude', path }));
    await ok(services.dispatch('sessions:archive', { ids: [imported.sessionId] }));
    expect(await ok<{ candidates: unknown[] }>(services.dispatch('agents:list', {}))).toMatchObject({ candidates: [] });
    expect(await ok<unknown[]>(services.dispatch('sessions:list', {}))).toEqual([]);
  });
});
