import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, lstat, mkdir, readFile, readdir, stat, symlink, writeFile, appendFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore, StoreError } from './index.js';
import { makeTempDir } from './test-support/temp-dir.js';
import type { NewSession } from './types.js';

const base: NewSession = { cwd: '/w/p', gitRoot: '/w/p', branch: 'main', title: 't', source: { tool: 'claude' }, holder: 'terminal' };
let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;

beforeEach(async () => {
  tmp = await makeTempDir();
  root = join(tmp.dir, 'store');
});
afterEach(() => tmp.cleanup());

describe('session store', () => {
  it('creates the root 0700 with sessions, archived and receipts, files 0600', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: 'hi' }]);
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    for (const d of ['sessions', 'archived', 'receipts']) expect((await stat(join(root, d))).mode & 0o777).toBe(0o700);
    const dir = store.sessionDir(s.id);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const f of ['session.json', 'messages.jsonl']) expect((await stat(join(dir, f))).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it('appends, reads back with seq, id and crc, and resolves only what it wrote', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [{ role: 'user', content: 'one' }]);
    const recs = await store.append(s.id, 1, [{ role: 'assistant', content: 'two' }, { role: 'user', content: 'three', id: 'x-3' }]);
    expect(recs.map((r) => r.seq)).toEqual([1, 2]);
    expect(recs[1]!.id).toBe('x-3');
    const all = await store.readMessages(s.id);
    expect(all.map((r) => r.content)).toEqual(['one', 'two', 'three']);
    expect(all.every((r) => /^[0-9a-f]{8}$/.test(r.crc))).toBe(true);
    expect((await store.readMessages(s.id, { afterSeq: 0, limit: 1 })).map((r) => r.content)).toEqual(['two']);
    expect((await store.readMessages(s.id, { tail: 2 })).map((r) => r.content)).toEqual(['two', 'three']);
    await store.close();
  });

  it('group commit: concurrent appends all resolve with distinct increasing seqs', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(s.id, 1, [{ role: 'user', content: `m${i}` }])));
    const seqs = results.flat().map((r) => r.seq);
    expect(new Set(seqs).size).toBe(50);
    expect((await store.readMessages(s.id)).length).toBe(50);
    await store.close();
    const again = await openStore(root);
    expect((await again.getSession(s.id)).messageCount).toBe(50);
    await again.close();
  });

  it('de-duplicates a retried append by id', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    const [a] = await store.append(s.id, 1, [{ role: 'user', content: 'x', id: 'same' }]);
    const [b] = await store.append(s.id, 1, [{ role: 'user', content: 'x', id: 'same' }]);
    expect(b!.seq).toBe(a!.seq);
    expect((await store.readMessages(s.id)).length).toBe(1);
    await store.close();
  });

  it('round-trips lone surrogates and U+2028/U+2029', async () => {
    const store = await openStore(root);
    const weird = 'a\ud800b\udfffc\u2028d\u2029e\n\r"\\';
    const s = await store.createSession(base, [{ role: 'user', content: weird }]);
    await store.append(s.id, 1, [{ role: 'assistant', content: weird, id: '\u2028'.length ? 'w2' : 'w' }]);
    await store.close();
    const again = await openStore(root);
    expect((await again.readMessages(s.id)).map((r) => r.content)).toEqual([weird, weird]);
    await again.close();
  });

  it('claim bumps the epoch and fences the old holder with STALE_HOLDER', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    const claimed = await store.claim(s.id, 'desktop');
    expect(claimed.holder).toMatchObject({ who: 'desktop', epoch: 2 });
    await expect(store.append(s.id, 1, [{ role: 'user', content: 'late' }])).rejects.toMatchObject({ code: 'STALE_HOLDER' });
    await expect(store.append(s.id, 2, [{ role: 'user', content: 'ok' }])).resolves.toHaveLength(1);
    await store.close();
  });

  it('a second process-like store sees the claim on disk (no stale cache)', async () => {
    const a = await openStore(root);
    const b = await openStore(root);
    const s = await a.createSession(base);
    await a.append(s.id, 1, [{ role: 'user', content: 'first' }]);
    await b.claim(s.id, 'desktop');
    await expect(a.append(s.id, 1, [{ role: 'user', content: 'stale' }])).rejects.toMatchObject({ code: 'STALE_HOLDER' });
    await b.append(s.id, 2, [{ role: 'user', content: 'second' }]);
    expect((await a.readMessages(s.id)).map((r) => [r.seq, r.content])).toEqual([
      [0, 'first'],
      [1, 'second'],
    ]);
    await a.close();
    await b.close();
  });

  it('update is compare-and-swap on revision: the loser gets CONFLICT', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    const u = await store.update(s.id, s.revision, (d) => ({ ...d, title: 'new' }));
    expect(u.revision).toBe(s.revision + 1);
    const err = await store.update(s.id, s.revision, (d) => ({ ...d, title: 'lost' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code: 'CONFLICT' });
    expect((await store.getSession(s.id)).title).toBe('new');
    await store.close();
  });

  it('fork copies records up to a seq into a new session with parentId', async () => {
    const store = await openStore(root);
    const s = await store.createSession({ ...base, extra: { pluginState: { head: 'abc', nested: { keep: 1 } } } }, [0, 1, 2, 3].map((i) => ({ role: 'user' as const, content: `m${i}` })));
    const f = await store.fork(s.id, 1, 'desktop');
    expect(f.parentId).toBe(s.id);
    expect(f.holder).toMatchObject({ who: 'desktop', epoch: 1 });
    expect((f as Record<string, unknown>).pluginState).toEqual({ head: 'abc', nested: { keep: 1 } });
    expect((await store.readMessages(f.id)).map((r) => r.content)).toEqual(['m0', 'm1']);
    expect((await store.readMessages(s.id)).length).toBe(4);
    await store.close();
  });

  it('archive moves the session under archived/ and keeps its index row', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    await store.archive(s.id);
    expect(await readdir(join(root, 'archived'))).toEqual([s.id]);
    expect((await store.getSession(s.id)).archived).toBe(true);
    expect(await store.list()).toEqual([]);
    expect((await store.list({ includeArchived: true })).map((r) => [r.id, r.archived])).toEqual([[s.id, true]]);
    await store.close();
  });

  it('list reads the index and rebuilds it when missing or corrupt', async () => {
    const store = await openStore(root);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await store.createSession({ ...base, title: `s${i}` })).id);
    expect((await store.list()).length).toBe(5);
    await store.close();
    await writeFile(join(root, 'index.json'), '{corrupt', { mode: 0o600 });
    await writeFile(join(root, 'index.journal.jsonl'), '', { mode: 0o600 });
    const again = await openStore(root);
    expect((await again.list()).map((r) => r.id).sort()).toEqual(ids.sort());
    const snap = JSON.parse(await readFile(join(root, 'index.json'), 'utf8')) as { rows: unknown[] };
    expect(snap.rows.length).toBe(5);
    await again.close();
  });

  it('listing a new data directory writes nothing; its first session creates the index', async () => {
    const store = await openStore(root);
    expect(await store.list({ includeArchived: true })).toEqual([]);
    expect(await store.list()).toEqual([]);
    expect(await readdir(root)).not.toContain('index.json');
    const s = await store.createSession(base);
    expect((await store.list()).map((r) => r.id)).toEqual([s.id]);
    await store.close();
    const again = await openStore(root);
    expect((await again.list()).map((r) => r.id)).toEqual([s.id]);
    await again.close();
  });

  it('list adds a session whose index row was never written (crash between)', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    await store.list();
    await writeFile(join(root, 'index.journal.jsonl'), '', { mode: 0o600 });
    await writeFile(join(root, 'index.json'), JSON.stringify({ schemaVersion: 1, rows: [] }), { mode: 0o600 });
    expect((await store.list()).map((r) => r.id)).toEqual([s.id]);
    await store.close();
  });

  it('refuses a symlinked root and a root owned by another user', async () => {
    await mkdir(join(tmp.dir, 'real'), { mode: 0o700 });
    await symlink(join(tmp.dir, 'real'), join(tmp.dir, 'link'));
    await expect(openStore(join(tmp.dir, 'link'))).rejects.toMatchObject({ code: 'UNSAFE_STORE' });
    const foreign = join(tmp.dir, 'foreign');
    await mkdir(foreign, { mode: 0o700 });
    const { chown } = await import('node:fs/promises');
    const canChown = process.getuid?.() === 0;
    if (!canChown) console.log('skip foreign-owner case: needs root to chown');
    else {
      await chown(foreign, 65534, 65534);
      await expect(openStore(foreign)).rejects.toMatchObject({ code: 'UNSAFE_STORE' });
    }
  });

  it('narrows wider permissions when it opens', async () => {
    const store = await openStore(root);
    await store.close();
    await chmod(root, 0o755);
    await chmod(join(root, 'sessions'), 0o777);
    await (await openStore(root)).close();
    expect((await lstat(root)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(root, 'sessions'))).mode & 0o777).toBe(0o700);
  });

  it('rejects ids that are not safe path components', async () => {
    const store = await openStore(root);
    for (const bad of ['../x', '.hidden', 'a/b', '', '-x']) await expect(store.getSession(bad)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(store.getSession('missing-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await store.close();
  });

  it('truncates a torn tail on recovery and quarantines mid-file damage without cutting', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, [0, 1, 2].map((i) => ({ role: 'user' as const, content: `m${i}` })));
    await store.close();
    const log = join(root, 'sessions', s.id, 'messages.jsonl');
    const good = await readFile(log);
    await appendFile(log, '{"seq":3,"id":"torn","cont');
    const a = await openStore(root);
    const report = await a.recover(s.id);
    expect(report.truncatedTail).toBeDefined();
    expect(await readFile(log)).toEqual(good);
    await a.close();
    // Damage in the middle: corrupt line 2 of 3, keep the rest.
    const lines = good.toString().split('\n');
    lines[1] = lines[1]!.replace('m1', 'XX');
    await writeFile(log, lines.join('\n'));
    const b = await openStore(root);
    const r2 = await b.recover(s.id);
    expect(r2.quarantined.length).toBe(1);
    expect((await b.readMessages(s.id)).map((r) => r.content)).toEqual(['m0', 'm2']);
    const doc = await b.getSession(s.id);
    expect(doc.damaged?.[0]?.reason).toMatch(/damaged but followed by valid records/);
    expect((await readFile(log)).length).toBe(good.length);
    expect(await readFile(join(root, 'sessions', s.id, r2.quarantined[0]!.sideFile), 'utf8')).toContain('XX');
    expect((await b.list())[0]!.damaged).toBe(true);
    await b.close();
    await truncate(log, 0);
  });

  it('stores artifacts by hash, receipts once, events and handoffs', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base);
    const art = await store.putArtifact(s.id, Buffer.from('patch'), 'diff');
    expect(art.ref).toBe(`artifacts/${art.sha256}.diff`);
    expect(Buffer.from(await store.readArtifact(s.id, art.ref)).toString()).toBe('patch');
    expect(await store.putArtifact(s.id, Buffer.from('patch'), 'diff')).toEqual(art);
    const r = { handoffId: 'h-1', sessionId: s.id, payloadSha256: 'aa', answer: { status: 'accepted' }, createdAt: 'now' };
    expect(await store.putReceipt(r)).toEqual(r);
    expect(await store.putReceipt({ ...r, answer: { status: 'other' } })).toEqual(r);
    expect(await store.getReceipt('h-1')).toEqual(r);
    expect(await store.getReceipt('h-2')).toBeUndefined();
    await store.appendEvent({ kind: 'handoff', outcome: 'accepted' });
    expect((await store.readEvents())[0]).toMatchObject({ kind: 'handoff', outcome: 'accepted' });
    await store.recordHandoff(s.id, { handoff_id: 'h-1' });
    expect(JSON.parse(await readFile(join(store.sessionDir(s.id), 'handoff.json'), 'utf8'))).toEqual({ handoff_id: 'h-1' });
    await store.close();
  });
});
