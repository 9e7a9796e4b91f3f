import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from './index.js';
import { makeTempDir } from './test-support/temp-dir.js';

/**
 * session.json documents with random extra fields at random depths (top level, holder, source,
 * model, model.settings, permission, damaged[i], and inside the extras themselves) must keep every
 * one of them when the store rewrites the document.
 */
let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir('baton-unknown-');
});
afterAll(() => tmp.cleanup());

const key = fc.stringMatching(/^x[a-zA-Z0-9_]{0,8}$/);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
})).value;
const extras = fc.dictionary(key, json, { minKeys: 1, maxKeys: 3 });

describe('unknown fields survive a rewrite at every depth', () => {
  it('round-trips through update() and claim()', async () => {
    const store = await openStore(join(tmp.dir, 'store'));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(extras, extras, extras, extras, extras, extras, extras, async (top, holder, source, model, settings, permission, damage) => {
        const s = await store.createSession({ id: `u-${n++}`, cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'codex' }, holder: 'terminal' });
        const path = join(store.sessionDir(s.id), 'session.json');
        const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
        const doc: Record<string, unknown> = {
          ...top,
          ...raw,
          holder: { ...holder, ...(raw.holder as object) },
          source: { ...source, ...(raw.source as object) },
          model: { ...model, name: 'm', settings },
          permission: { ...permission, mode: 'ask', rules: [] },
          damaged: [{ ...damage, reason: 'r', sideFile: 'f', detectedAt: 'now' }],
        };
        await writeFile(path, JSON.stringify(doc));
        await writeFile(join(store.sessionDir(s.id), `session.rev-${doc.revision as number}.json`), JSON.stringify(doc));
        await store.update(s.id, doc.revision as number, (d) => ({ ...d, title: 'changed' }));
        await store.claim(s.id, 'desktop');
        const back = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
        for (const [k, v] of Object.entries(top)) if (!(k in raw)) expect(back[k]).toEqual(v);
        expect(back.holder).toMatchObject(Object.fromEntries(Object.entries(holder).filter(([k]) => !['who', 'epoch'].includes(k))));
        expect(back.source).toMatchObject(Object.fromEntries(Object.entries(source).filter(([k]) => k !== 'tool')));
        expect(back.model).toEqual(doc.model);
        expect(back.permission).toEqual(doc.permission);
        expect(back.damaged).toEqual(doc.damaged);
        expect(back.title).toBe('changed');
      }),
      { numRuns: 150 },
    );
    await store.close();
  }, 120_000);
});
