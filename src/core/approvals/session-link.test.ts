import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';
import { bridgeSessionId } from './claude-hook.js';
import { createSessionLinker } from './session-link.js';

/** The linker over a real store: Baton ids, imported Claude Code / Codex sessions, and ids nobody holds. */
let dir: string;
let store: SessionStore;
beforeEach(async () => {
  dir = await tempDataDir('baton-link-');
  store = await openStore(dir);
});
afterEach(async () => {
  await store.close();
  await removeDir(dir);
});

const base = { cwd: '/work/web', gitRoot: '/work/web', branch: 'main', holder: 'desktop' } as const;

describe('session linker', () => {
  it('session link: a Codex thread id resolves to its newest import; a Baton id to itself; an unknown id to nothing', async () => {
    const codexId = '019a7b2c-1d3e-7f40-8a51-b6c7d8e9f012';
    const older = await store.createSession({ ...base, id: 'imp-old', title: 'Date picker (first import)', source: { tool: 'codex', externalId: codexId } });
    await new Promise((r) => setTimeout(r, 20));
    const newer = await store.createSession({ ...base, id: 'imp-new', title: 'Date picker (later import)', source: { tool: 'codex', externalId: codexId } });
    const own = await store.createSession({ ...base, title: 'Baton own', source: { tool: 'baton' } });
    const linker = createSessionLinker(store);
    expect(newer.updatedAt >= older.updatedAt).toBe(true);
    expect((await linker.resolve(codexId)).link).toEqual({ batonSessionId: 'imp-new', title: 'Date picker (later import)', source: 'codex' });
    expect((await linker.resolve(own.id)).link).toEqual({ batonSessionId: own.id, title: 'Baton own', source: 'baton' });
    expect((await linker.resolve('nobody-holds-this')).link).toEqual({ batonSessionId: null, title: null, source: null });
    expect(await linker.aliases('imp-old')).toEqual(['imp-old', codexId]);
    expect(await linker.aliases(own.id)).toEqual([own.id]);
  });

  it('session link: an agent id the store cannot take is matched the way the bridge files it (hashed)', async () => {
    const odd = 'thread with spaces/and slashes';
    await store.createSession({ ...base, id: 'imp-odd', title: 'Odd id', source: { tool: 'claude', externalId: odd } });
    const linker = createSessionLinker(store);
    const filed = bridgeSessionId(odd);
    expect(filed).toMatch(/^ext-/);
    expect((await linker.resolve(filed)).link.batonSessionId).toBe('imp-odd');
    expect(await linker.aliases('imp-odd')).toEqual(['imp-odd', filed]);
  });
});
