import { cp, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateIdentity } from '../crypto/identity.js';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { openStore } from '../store/index.js';
import { deleteChildRunner } from '../store/test-support/kill-child.js';
import { fastTmpRoot, makeTempDir } from '../store/test-support/temp-dir.js';
import { wholeOrGone } from '../store/test-support/whole-or-gone.js';
import { planPurge, purge } from './purge.js';

let work: { dir: string; cleanup: () => Promise<void> };
let template: string;
let ids: string[];
let runChild: Awaited<ReturnType<typeof deleteChildRunner>>;

beforeAll(async () => {
  work = await makeTempDir('baton-purge-', fastTmpRoot());
  template = join(work.dir, 'template');
  runChild = await deleteChildRunner(work.dir);
  const store = await openStore(template);
  ids = [];
  for (const title of ['a', 'b', 'c']) ids.push((await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title, source: { tool: 'baton' }, holder: 'terminal' }, conversation(10))).id);
  await store.archive(ids[2]!);
  for (const [i, id] of ids.entries()) await store.putReceipt({ handoffId: `h-${i}`, sessionId: id, payloadSha256: 'x', answer: { ok: true }, createdAt: new Date().toISOString() });
  await store.appendEvent({ kind: 'test' });
  await writeFile(join(template, 'importers-cache.json'), '{"v":1}');
  await writeFile(join(template, 'relay.json'), '{"url":"nats://127.0.0.1:4222"}');
  await loadOrCreateIdentity(template, 'laptop');
  await store.close();
});
afterAll(async () => {
  await work.cleanup();
});

let copies = 0;
async function copyOf(): Promise<string> {
  const root = join(work.dir, `copy-${copies++}`);
  await cp(template, root, { recursive: true });
  return root;
}

describe('baton purge', () => {
  it('--dry-run lists sessions, archives, receipts, events, caches and relay settings with sizes, and removes nothing', async () => {
    const root = await copyOf();
    const store = await openStore(root);
    const plan = await planPurge(store, root);
    expect(plan.items.map((i) => `${i.kind}:${i.name}`).sort()).toEqual(
      [...ids.slice(0, 2).map((id) => `session:${id}`), `archived:${ids[2]}`, 'receipts:receipts/', 'events:events.jsonl', 'cache:importers-cache.json', 'relay:relay.json'].sort(),
    );
    expect(plan.items.every((i) => i.bytes > 0)).toBe(true);
    expect(plan.bytes).toBe(plan.items.reduce((n, i) => n + i.bytes, 0));
    expect((await store.list({ includeArchived: true })).length).toBe(3);
    await store.close();
  });

  it('removes it all and leaves an empty, valid data directory that keeps the device keys', async () => {
    const root = await copyOf();
    const store = await openStore(root);
    const { removed } = await purge(store, await planPurge(store, root));
    expect(removed.length).toBe(7);
    expect(await store.list({ includeArchived: true })).toEqual([]);
    expect((await planPurge(store, root)).items).toEqual([]);
    await store.close();
    const reopened = await openStore(root);
    const created = await reopened.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 'after', source: { tool: 'baton' }, holder: 'terminal' }, conversation(2));
    expect((await reopened.list()).map((r) => r.id)).toEqual([created.id]);
    await reopened.close();
    expect((await readdir(root)).sort()).toEqual(expect.arrayContaining(['archived', 'device', 'receipts', 'sessions']));
    expect(await readdir(join(root, 'device'))).toContain('identity.json');
  });

  it('killed after each disk operation, every session is whole or gone and the store opens', async () => {
    const full = await runChild(await copyOf(), 'PURGE', 0);
    expect(full.stderr).toBe('');
    const states = new Set<string>();
    for (let k = 1; k <= full.ops!; k++) {
      const root = await copyOf();
      const run = await runChild(root, 'PURGE', k);
      expect(run.killed, `kill at op ${k}: ${run.stderr}`).toBe(true);
      const store = await openStore(root);
      const each = [];
      for (const [i, id] of ids.entries()) each.push(await wholeOrGone(store, id, 10, `h-${i}`));
      states.add(each.join('/'));
      await store.close();
    }
    expect(states).toContain('whole/whole/whole');
    expect(states).toContain('gone/gone/gone');
    expect(states.size).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
