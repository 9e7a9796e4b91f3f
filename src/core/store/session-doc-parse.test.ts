import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionDoc } from '../../shared/session.js';
import { INTERPRETED_PARSES, tieredSafeParse } from '../../shared/tiered-parse.js';
import { countingCompiles } from '../../shared/test-support/counting-compiles.js';
import { openStore } from './index.js';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('SessionDoc parses in a process that makes few of them', () => {
  it('creating a session compiles no zod parser for its document (a CLI paid ~15–20 ms for it every handoff)', async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-doc-parse-'));
    const store = await openStore(root);
    try {
      const init = { cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' as const }, holder: 'terminal' };
      const { result: session, compiles } = await countingCompiles(() => store.createSession(init, [{ role: 'user', content: 'x' }]));
      expect(session.messageCount).toBe(1);
      expect(compiles).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('is interpreted for its first parses, then compiled, with the same output as the compiled parser, key order included', async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-doc-parse-'));
    const store = await openStore(root);
    let raw: unknown;
    try {
      const session = await store.createSession({ cwd: '/w', gitRoot: '/w', branch: 'main', title: 't', source: { tool: 'claude', externalId: 'e', future: 1 }, holder: 'terminal', extra: { unknownField: { a: [1] } } }, [{ role: 'user', content: 'x' }]);
      raw = JSON.parse(await readFile(join(store.sessionDir(session.id), 'session.json'), 'utf8'));
    } finally {
      await store.close();
    }
    const parse = tieredSafeParse(SessionDoc);
    const interpreted = await countingCompiles(async () => Array.from({ length: INTERPRETED_PARSES }, () => parse(raw)));
    expect(interpreted.compiles).toBe(0);
    const compiled = await countingCompiles(async () => parse(raw));
    expect(compiled.compiles).toBeGreaterThan(0);
    const expected = SessionDoc.safeParse(raw);
    for (const r of [...interpreted.result, compiled.result]) {
      expect(r).toStrictEqual(expected);
      expect(JSON.stringify(r.data)).toBe(JSON.stringify(expected.data));
    }
    const refused = { ...(raw as object), revision: -1, holder: { who: '' } };
    expect(tieredSafeParse(SessionDoc)(refused).error?.issues).toEqual(SessionDoc.safeParse(refused).error?.issues);
  });
});
