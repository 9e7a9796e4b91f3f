import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../hash.js';
import { openStore } from './index.js';
import type { LandingBatch, NewArtifact, SessionStore } from './types.js';

let root: string;
let store: SessionStore;
const init = { cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' as const }, holder: 'terminal' };

async function* batchesOf(artifacts: NewArtifact[]): AsyncIterable<LandingBatch> {
  yield { messages: [{ role: 'user', content: 'x' }], artifacts };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-named-artifacts-'));
  store = await openStore(root);
});
afterEach(async () => {
  await store.close();
  await rm(root, { recursive: true, force: true });
});

describe('artifacts written with a session and named artifacts', () => {
  it('createSession lands the artifacts with the messages, once per content', async () => {
    const a = Buffer.from('full output A');
    const session = await store.createSession(init, [{ role: 'user', content: 'x' }], [{ bytes: a, extension: 'txt' }, { bytes: a, extension: 'txt' }, { bytes: Buffer.from('B') }]);
    const names = (await readdir(join(store.sessionDir(session.id), 'artifacts'))).sort();
    expect(names).toEqual([sha256Hex('B'), `${sha256Hex(a)}.txt`].sort());
    expect(Buffer.from(await store.readArtifact(session.id, `artifacts/${sha256Hex(a)}.txt`)).toString()).toBe('full output A');
  });

  it('a landing writes a named artifact under its name; a path, or one name twice, is refused and leaves no session', async () => {
    const landed = await store.landSessionStream(init, batchesOf([{ bytes: Buffer.from('# one'), name: 'summary-01.md' }]));
    expect(Buffer.from(await store.readArtifact(landed.session.id, 'artifacts/summary-01.md', sha256Hex('# one'))).toString()).toBe('# one');
    for (const artifacts of [[{ bytes: Buffer.from('x'), name: '../session.json' }], [{ bytes: Buffer.from('a'), name: 'summary-01.md' }, { bytes: Buffer.from('b'), name: 'summary-01.md' }]]) {
      await expect(store.landSessionStream({ ...init, id: 's-refused-1' }, batchesOf(artifacts))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(store.getSession('s-refused-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await readdir(join(root, 'sessions'))).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('a named artifact is written once: the same bytes again are a no-op, other bytes CONFLICT', async () => {
    const session = await store.createSession(init);
    const first = await store.putNamedArtifact(session.id, 'summary-01.md', Buffer.from('# one'));
    expect(first).toEqual({ ref: 'artifacts/summary-01.md', sha256: sha256Hex('# one') });
    expect(await store.putNamedArtifact(session.id, 'summary-01.md', Buffer.from('# one'))).toEqual(first);
    await expect(store.putNamedArtifact(session.id, 'summary-01.md', Buffer.from('# two'))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(Buffer.from(await store.readArtifact(session.id, first.ref, first.sha256)).toString()).toBe('# one');
    await expect(store.readArtifact(session.id, first.ref, sha256Hex('# two'))).rejects.toMatchObject({ code: 'IO_ERROR' });
  });

  it('refuses names and refs that are not a series file or a hash', async () => {
    const session = await store.createSession(init);
    for (const name of ['../x-01.md', 'summary.md', 'Summary-01.md', 'summary-1.md', 'summary-01.md/..', '']) {
      await expect(store.putNamedArtifact(session.id, name, Buffer.from('x'))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    for (const ref of ['artifacts/../session.json', 'session.json', 'artifacts/summary-01.md/../../x']) {
      await expect(store.readArtifact(session.id, ref)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
  });
});
