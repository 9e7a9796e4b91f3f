import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation } from '../handoff/test-support/handoff-fixture.js';
import { openStore } from './index.js';
import { fastTmpRoot, makeTempDir } from './test-support/temp-dir.js';
import { deleteChildRunner } from './test-support/kill-child.js';
import { wholeOrGone } from './test-support/whole-or-gone.js';

let runChild: Awaited<ReturnType<typeof deleteChildRunner>>;

let work: { dir: string; cleanup: () => Promise<void> };
let template: string;
let ids: { live: string; archived: string; kept: string };

beforeAll(async () => {
  work = await makeTempDir('baton-delete-', fastTmpRoot());
  template = join(work.dir, 'template');
  runChild = await deleteChildRunner(work.dir);
  const store = await openStore(template);
  const make = async (title: string) => (await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title, source: { tool: 'baton' }, holder: 'terminal' }, conversation(20), [{ bytes: Buffer.from(`artifact of ${title}`), extension: 'txt' }])).id;
  ids = { live: await make('live'), archived: await make('archived'), kept: await make('kept') };
  await store.archive(ids.archived);
  for (const [key, id] of Object.entries(ids)) await store.putReceipt({ handoffId: `h-${key}`, sessionId: id, payloadSha256: 'x', answer: { ok: true }, createdAt: new Date().toISOString() });
  await store.close();
});
afterAll(async () => {
  await work.cleanup();
});

describe('baton delete is crash-safe', () => {
  it('removes files, index row and receipts of a live and an archived session, and leaves the others', async () => {
    const root = join(work.dir, 'plain');
    await cp(template, root, { recursive: true });
    const store = await openStore(root);
    await store.delete(ids.live);
    await store.delete(ids.archived);
    expect(await wholeOrGone(store, ids.live, 20, 'h-live')).toBe('gone');
    expect(await wholeOrGone(store, ids.archived, 20, 'h-archived')).toBe('gone');
    expect(await wholeOrGone(store, ids.kept, 20, 'h-kept')).toBe('whole');
    await expect(store.delete(ids.live)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await store.close();
    // The index file itself no longer names them (not only the reconciled listing).
    const reopened = await openStore(root);
    const indexText = JSON.stringify(await reopened.indexRows().then((r) => [...r.keys()]));
    expect(indexText).not.toContain(ids.live);
    await reopened.close();
  });

  it('killed after each disk operation, the session is whole or gone once the store opens again', async () => {
    const full = await runChild(await copyOf('count'), `${ids.live},${ids.archived}`, 0);
    expect(full.stderr).toBe('');
    expect(full.ops).toBeGreaterThan(10);
    const seen = new Set<string>();
    for (let k = 1; k <= full.ops!; k++) {
      const root = await copyOf(`kill-${k}`);
      const run = await runChild(root, `${ids.live},${ids.archived}`, k);
      expect(run.killed, `kill at op ${k}: ${run.stderr}`).toBe(true);
      const store = await openStore(root);
      const live = await wholeOrGone(store, ids.live, 20, 'h-live');
      const archived = await wholeOrGone(store, ids.archived, 20, 'h-archived');
      expect(await wholeOrGone(store, ids.kept, 20, 'h-kept')).toBe('whole');
      seen.add(`${live}/${archived}`);
      await store.close();
    }
    // Early kills keep both, late kills lose both, in between one is gone: every state was reached.
    expect([...seen].sort()).toEqual(['gone/gone', 'gone/whole', 'whole/whole']);
  }, 300_000);
});

let copies = 0;
async function copyOf(name: string): Promise<string> {
  const root = join(work.dir, `${name}-${copies++}`);
  await cp(template, root, { recursive: true });
  return root;
}
