import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SESSION_SCHEMA_VERSION } from '../../shared/session.js';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs } from '../fs/durable-fs.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { openStore } from './index.js';
import { INDEX_FILE, INDEX_JOURNAL, INDEX_VERSION_PROBE_BYTES, IndexFile } from './index-file.js';
import { makeTempDir } from './test-support/temp-dir.js';

// Opening the store checks only index.json's version (issue 20: `baton handoff` no longer parses
// the journal and every row to learn it). isNewer() must give the answer the full read gives.
let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  tmp = await makeTempDir('baton-index-version-');
});
afterEach(async () => {
  await tmp.cleanup();
});

const row = (i: number) => ({ id: `s-${i}`, cwd: '/w', gitRoot: null, branch: null, title: `t ${i}`, updatedAt: '2026-01-01T00:00:00.000Z', revision: i });

/** index.json texts: as written, other versions, spacing, damage past and inside the probed prefix, other types, garbage. */
function corpus(): string[] {
  const random = seededRandom(20_1130);
  const texts: string[] = [];
  for (const version of [0, 1, SESSION_SCHEMA_VERSION, SESSION_SCHEMA_VERSION + 1, 2, 3, 10, 999_999_999, 1_000_000_000, -1, 1.5]) {
    const whole = JSON.stringify({ schemaVersion: version, rows: [row(1), row(2)] });
    texts.push(whole, JSON.stringify({ schemaVersion: version }), JSON.stringify({ rows: [], schemaVersion: version }), ` ${whole}`, whole.replace(':', ': '));
    texts.push(whole.slice(0, INDEX_VERSION_PROBE_BYTES), whole.slice(0, 20), `${whole.slice(0, 30)}garbage`, JSON.stringify({ schemaVersion: String(version), rows: [] }));
  }
  const base = JSON.stringify({ schemaVersion: SESSION_SCHEMA_VERSION, rows: Array.from({ length: 40 }, (_, i) => row(i)) });
  while (texts.length < 400) {
    // A byte changed, cut, or inserted somewhere in the first 80 bytes (where the version is read).
    const at = Math.floor(random() * 80);
    const byte = String.fromCharCode(32 + Math.floor(random() * 95));
    const kind = Math.floor(random() * 3);
    texts.push(kind === 0 ? base.slice(0, at) + byte + base.slice(at + 1) : kind === 1 ? base.slice(0, at) : base.slice(0, at) + byte + base.slice(at));
  }
  texts.push('', '{}', 'null', '[]', '{"schemaVersion":1', '{"schemaVersion":1}', '{"schemaVersion":2}', `{"schemaVersion":1,${'x'.repeat(200)}`, '\u0000'.repeat(64));
  return texts;
}

describe('IndexFile.isNewer', () => {
  it('gives the full read’s answer for 400+ index.json texts, including damaged and newer ones', async () => {
    const root = tmp.dir;
    const index = new IndexFile(nodeDurableFs, root);
    const cases = corpus();
    expect(cases.length).toBeGreaterThan(400);
    let newer = 0;
    for (const text of cases) {
      await writeFile(join(root, INDEX_FILE), text);
      const expected = (await new IndexFile(nodeDurableFs, root).read()).version > SESSION_SCHEMA_VERSION;
      expect({ text, newer: await index.isNewer() }).toEqual({ text, newer: expected });
      if (expected) newer++;
    }
    expect(newer).toBeGreaterThan(10); // the corpus holds newer stores, not only current ones
  });

  it('with no index.json: not newer', async () => {
    expect(await new IndexFile(nodeDurableFs, tmp.dir).isNewer()).toBe(false);
  });

  it('opening a store reads neither the journal nor the rows of index.json; a newer store is still refused writes', async () => {
    const root = join(tmp.dir, 'store');
    const first = await openStore(root, { keyStore: null });
    for (let i = 0; i < 5; i++) await first.createSession({ cwd: '/w', gitRoot: null, branch: null, title: `t${i}`, source: { tool: 'baton' }, holder: 'terminal' });
    await first.close();
    const readFiles: string[] = [];
    const counting = delegatingFs(nodeDurableFs, {
      readFile: (path) => {
        readFiles.push(path);
        return nodeDurableFs.readFile(path);
      },
    });
    const store = await openStore(root, { keyStore: null, fs: counting });
    expect(readFiles.filter((p) => p.endsWith(INDEX_JOURNAL))).toEqual([]);
    expect(store.readOnly).toBe(false);
    // The rows are still there for whoever lists them.
    expect((await store.list()).map((s) => s.title).sort()).toEqual(['t0', 't1', 't2', 't3', 't4']);
    await store.close();

    await writeFile(join(root, INDEX_FILE), JSON.stringify({ schemaVersion: SESSION_SCHEMA_VERSION + 1, rows: [] }), { mode: 0o600 });
    const newer = await openStore(root, { keyStore: null });
    expect(newer.readOnly).toBe(true);
    await expect(newer.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 'x', source: { tool: 'baton' }, holder: 'terminal' })).rejects.toMatchObject({
      code: 'READ_ONLY',
      message: expect.stringMatching(new RegExp(`store schema version ${SESSION_SCHEMA_VERSION + 1}`)),
    });
    await newer.close();
  });
});
