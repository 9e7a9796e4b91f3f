import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from './index.js';
import { makeTempDir } from './test-support/temp-dir.js';
import type { NewSession } from './types.js';

/** The store owns everything a session is: damage found by reads, duplicate ids, an unreadable session.json, one CAS loop. */
const base: NewSession = { cwd: '/w/p', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' }, holder: 'terminal' };
const msgs = (n: number) => Array.from({ length: n }, (_, i) => ({ role: 'user' as const, content: `m${i}`, id: `id-${i}` }));
let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;

beforeEach(async () => {
  tmp = await makeTempDir();
  root = join(tmp.dir, 'store');
});
afterEach(() => tmp.cleanup());

/** Corrupts the content of line `index` (0-based) in place, keeping the line count. */
async function damageLine(log: string, index: number): Promise<{ start: number; end: number }> {
  const text = await readFile(log, 'utf8');
  const lines = text.split('\n');
  const start = Buffer.byteLength(lines.slice(0, index).map((l) => `${l}\n`).join(''));
  lines[index] = lines[index]!.replace(/"content":"m\d+"/, '"content":"XX"');
  await writeFile(log, lines.join('\n'));
  return { start, end: start + Buffer.byteLength(lines[index]!) + 1 };
}

describe('damage found by any read is recorded when found', () => {
  it('a full read records side file and byte range; a later tail read that never touches it still reports it; nothing is cut', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, msgs(40));
    const log = join(store.sessionDir(s.id), 'messages.jsonl');
    const range = await damageLine(log, 5);
    const size = (await readFile(log)).length;
    // A fresh process (no writer ever opens the log) reads it.
    const reader = await openStore(root);
    expect(await reader.readMessages(s.id)).toHaveLength(39);
    const doc = await reader.getSession(s.id);
    expect(doc.damaged).toEqual([expect.objectContaining({ sideFile: `messages.damaged-${range.start}-${range.end}.bin`, file: 'messages.jsonl', start: range.start, end: range.end })]);
    expect(await readFile(join(store.sessionDir(s.id), doc.damaged![0]!.sideFile), 'utf8')).toContain('"XX"');
    expect((await readFile(log)).length).toBe(size);
    // A later paged read that only sees the tail: the session still says so.
    const later = await openStore(root);
    expect((await later.readMessages(s.id, { tail: 3 })).map((m) => m.content)).toEqual(['m37', 'm38', 'm39']);
    expect((await later.getSession(s.id)).damaged).toHaveLength(1);
    expect((await later.list()).find((r) => r.id === s.id)?.damaged).toBe(true);
    for (const st of [store, reader, later]) await st.close();
  });

  it('a tail read that crosses the damage records it too, once, and the writer recovery agrees on the side file', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, msgs(10));
    const log = join(store.sessionDir(s.id), 'messages.jsonl');
    await damageLine(log, 8);
    const reader = await openStore(root);
    expect((await reader.readMessages(s.id, { tail: 3 })).map((m) => m.content)).toEqual(['m6', 'm7', 'm9']);
    expect((await reader.readMessages(s.id, { afterSeq: 2, limit: 2 })).map((m) => m.content)).toEqual(['m3', 'm4']);
    const report = await reader.recover(s.id);
    const doc = await reader.getSession(s.id);
    expect(doc.damaged).toHaveLength(1);
    expect(report.quarantined[0]!.sideFile).toBe(doc.damaged![0]!.sideFile);
    expect(doc.messageCount).toBe(9);
    await store.close();
    await reader.close();
  });

  it('a tail window that starts inside a damaged region records nothing partial; the full read records the whole region once', async () => {
    const store = await openStore(root);
    const big = Array.from({ length: 200 }, (_, i) => ({ role: 'user' as const, content: `m${i} ${'z'.repeat(1000)}`, id: `id-${i}` }));
    const s = await store.createSession(base, big);
    const log = join(store.sessionDir(s.id), 'messages.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    for (let i = 50; i <= 150; i++) lines[i] = lines[i]!.replace(/"content":"m\d+/, '"content":"XX');
    await writeFile(log, lines.join('\n'));
    const reader = await openStore(root);
    expect((await reader.readMessages(s.id, { tail: 2 })).map((m) => m.id)).toEqual(['id-198', 'id-199']);
    expect((await reader.getSession(s.id)).damaged).toBeUndefined();
    expect(await reader.readMessages(s.id)).toHaveLength(99);
    const start = Buffer.byteLength(lines.slice(0, 50).map((l) => `${l}\n`).join(''));
    const end = Buffer.byteLength(lines.slice(0, 151).map((l) => `${l}\n`).join(''));
    expect((await reader.getSession(s.id)).damaged).toEqual([expect.objectContaining({ start, end })]);
    await store.close();
    await reader.close();
  });

  it('a read-only store still reads, without writing anything', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, msgs(5));
    await damageLine(join(store.sessionDir(s.id), 'messages.jsonl'), 2);
    await store.close();
    await writeFile(join(root, 'index.json'), JSON.stringify({ schemaVersion: 2, rows: [] }), { mode: 0o600 });
    const ro = await openStore(root);
    expect(ro.readOnly).toBe(true);
    expect(await ro.readMessages(s.id)).toHaveLength(4);
    expect((await readdir(ro.sessionDir(s.id))).some((n) => n.startsWith('messages.damaged-'))).toBe(false);
    await ro.close();
  });
});

describe('duplicate ids in a new session', () => {
  it('the same message twice is folded into one, with a note, and the count matches what is stored', async () => {
    const store = await openStore(root);
    const m = msgs(3);
    const s = await store.createSession(base, [m[0]!, m[1]!, m[1]!, m[2]!]);
    expect(s.messageCount).toBe(3);
    expect((await store.readMessages(s.id)).map((r) => r.id)).toEqual(['id-0', 'id-1', 'id-2']);
    expect(s.notes?.[0]).toMatch(/message id "id-1" was given 2 times with the same content \(messages 2, 3\); it was stored once/);
    expect((await store.list())[0]!.messageCount).toBe(3);
    await store.close();
  });

  it('the same id on different messages is refused before anything is saved', async () => {
    const store = await openStore(root);
    const err = await store.createSession({ ...base, id: 's-dup' }, [{ role: 'user', content: 'a', id: 'x' }, { role: 'user', content: 'b' }, { role: 'assistant', content: 'c', id: 'x' }]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/messages 1 and 3 both have id "x" but differ/) });
    expect(await store.list()).toEqual([]);
    expect(await readdir(join(root, 'sessions'))).toEqual([]);
    await store.close();
  });
});

describe('an unreadable session.json', () => {
  it('is restored from the newest readable revision plus the log, with a note, and stays writable', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, msgs(2));
    await store.update(s.id, 0, (d) => ({ ...d, title: 'renamed once' }));
    await store.update(s.id, 1, (d) => ({ ...d, title: 'renamed twice' }));
    await store.append(s.id, 1, [{ role: 'assistant', content: 'after', id: 'id-after' }]);
    await store.close();
    const dir = join(root, 'sessions', s.id);
    // The message count was written back as revision 3 on close; revision 2 still counts 2 messages.
    const last = JSON.parse(await readFile(join(dir, 'session.json'), 'utf8')) as { revision: number };
    expect(last.revision).toBe(3);
    expect(JSON.parse(await readFile(join(dir, 'session.rev-2.json'), 'utf8'))).toMatchObject({ messageCount: 2, title: 'renamed twice' });
    // Damage written in place: session.json and its own marker (a hard link) both become garbage.
    await writeFile(join(dir, 'session.json'), '{"schemaVersion":1,"id":"tr');
    const again = await openStore(root);
    const doc = await again.getSession(s.id);
    expect(doc.title).toBe('renamed twice');
    expect(doc.messageCount).toBe(3);
    expect(doc.notes?.at(-1)).toMatch(/session\.json was unreadable .*restored from session\.rev-2\.json \(revision 2\) and the message log \(3 messages\)/);
    expect(await readFile(join(dir, 'session.unreadable-r3.json'), 'utf8')).toBe('{"schemaVersion":1,"id":"tr');
    expect(await readFile(join(dir, 'session.rev-3.json.unreadable'), 'utf8')).toBe('{"schemaVersion":1,"id":"tr');
    // Written back: session.json parses again, and the session takes updates.
    expect(JSON.parse(await readFile(join(dir, 'session.json'), 'utf8'))).toMatchObject({ title: 'renamed twice', revision: 3, messageCount: 3 });
    await again.mutate(s.id, (d) => ({ ...d, title: 'fixed' }));
    expect((await again.getSession(s.id)).title).toBe('fixed');
    expect((await again.list())[0]).toMatchObject({ id: s.id, messageCount: 3, title: 'fixed' });
    await again.close();
  });

  it('with no readable revision at all, the error names the file', async () => {
    const store = await openStore(root);
    const s = await store.createSession(base, msgs(1));
    await store.close();
    const dir = join(root, 'sessions', s.id);
    for (const n of await readdir(dir)) if (n.startsWith('session.')) await writeFile(join(dir, n), 'garbage');
    const again = await openStore(root);
    await expect(again.getSession(s.id)).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/session\.json is not valid JSON/) });
    await again.close();
  });
});

describe('typed session fields', () => {
  it('read typed, keep unknown keys inside them, and set aside an old value that does not fit instead of losing the session', async () => {
    const store = await openStore(root);
    const s = await store.createSession({ ...base, extra: { workspace: { cwd: '/w/p', git: null, xFuture: { kept: 1 } }, redactions: { 'aws-key': 2 } } });
    expect(s.workspace).toEqual({ cwd: '/w/p', git: null, xFuture: { kept: 1 } });
    expect(s.redactions).toEqual({ 'aws-key': 2 });
    const path = join(store.sessionDir(s.id), 'session.json');
    const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...raw, rehydrationLog: [{ step: 'from an old build' }] }));
    const again = await openStore(root);
    const doc = await again.getSession(s.id);
    expect(doc.rehydrationLog).toBeUndefined();
    expect(doc.unreadableFields).toEqual({ rehydrationLog: [{ step: 'from an old build' }] });
    expect(doc.notes?.[0]).toMatch(/"rehydrationLog" did not match its schema/);
    await again.mutate(s.id, (d) => ({ ...d, title: 'x' }));
    const back = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(back).toMatchObject({ title: 'x', workspace: { xFuture: { kept: 1 } }, unreadableFields: { rehydrationLog: [{ step: 'from an old build' }] } });
    await expect(again.createSession({ ...base, extra: { redactions: { x: -1 } } })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/redactions\.x/) });
    await store.close();
    await again.close();
  });
});

describe('store.mutate: the one compare-and-swap loop', () => {
  it('concurrent mutations from two stores over the same session all land', async () => {
    const a = await openStore(root);
    const b = await openStore(root);
    const s = await a.createSession({ ...base, extra: { counter: 0 } });
    const bump = (store: typeof a) => store.mutate(s.id, (d) => ({ ...d, counter: (d.counter as number) + 1 }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 ? a : b)));
    expect((await a.getSession(s.id)).counter).toBe(20);
    // Returning undefined writes nothing.
    const before = (await a.getSession(s.id)).revision;
    await a.mutate(s.id, () => undefined);
    expect((await a.getSession(s.id)).revision).toBe(before);
    // An invalid result is refused, not written.
    await expect(a.mutate(s.id, (d) => ({ ...d, rehydrationLog: [{ bogus: true }] as never }))).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await a.close();
    await b.close();
  });
});

describe('events and handoff history lines', () => {
  it('an event after a torn events.jsonl line is kept', async () => {
    const store = await openStore(root);
    await store.appendEvent({ kind: 'one' });
    await appendFile(join(root, 'events.jsonl'), '{"kind":"to');
    await store.appendEvent({ kind: 'two' });
    expect((await store.readEvents()).map((e) => e.kind)).toEqual(['one', 'two']);
    await store.close();
  });

  it('a line longer than the look-back window before a torn tail is kept (the window grows)', async () => {
    const store = await openStore(root);
    await store.appendEvent({ kind: 'big', pad: 'x'.repeat(300_000) });
    await appendFile(join(root, 'events.jsonl'), `{"kind":"torn","pad":"${'y'.repeat(100_000)}`);
    await store.appendEvent({ kind: 'after' });
    const events = await store.readEvents();
    expect(events.map((e) => e.kind)).toEqual(['big', 'after']);
    expect((events[0]!.pad as string).length).toBe(300_000);
    await store.close();
  });
});
