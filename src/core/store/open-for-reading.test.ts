import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmod, chown, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from './index.js';
import { OPENED_FOR_READING, openStoreForReading } from './open-for-reading.js';
import { readingFs } from './reading-fs.js';
import { makeTempDir } from './test-support/temp-dir.js';
import type { DurableFs } from '../fs/durable-fs.js';
import type { NewSession } from './types.js';

const base: NewSession = { cwd: '/w/p', gitRoot: '/w/p', branch: 'main', title: 't', source: { tool: 'claude' }, holder: 'terminal' };
let tmp: { dir: string; cleanup: () => Promise<void> };
let root: string;

beforeEach(async () => {
  tmp = await makeTempDir();
  root = join(tmp.dir, 'store');
});
afterEach(() => tmp.cleanup());

/** A store with a live and an archived session, closed. */
async function storeWithTwoSessions(): Promise<{ live: string; archived: string }> {
  const store = await openStore(root);
  const live = (await store.createSession({ ...base, title: 'live' }, [{ role: 'user', content: 'one' }])).id;
  const archived = (await store.createSession({ ...base, title: 'archived' })).id;
  await store.archive(archived);
  await store.list();
  await store.close();
  return { live, archived };
}

/** Every name under `dir` with its size and mtime: what a reader must leave as it was. */
async function treeOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const st = await lstat(path);
    out.push(`${path} ${st.size} ${st.mtimeMs} ${st.mode}`);
    if (entry.isDirectory()) out.push(...(await treeOf(path)));
  }
  return out.sort();
}

describe('the store opened for reading', () => {
  it('lists what the writer lists, writes nothing, and refuses every write', async () => {
    const { live, archived } = await storeWithTwoSessions();
    // A dead writer's temp file: the writer's open sweeps it, a reader leaves it.
    await writeFile(join(root, 'sessions', '.tmp-dead-writer'), 'x', { mode: 0o600 });
    const writer = await openStore(root);
    const expected = await writer.list({ includeArchived: true });
    await writer.close();
    await writeFile(join(root, 'sessions', '.tmp-dead-writer'), 'x', { mode: 0o600 });
    const before = await treeOf(root);
    const reader = await openStoreForReading(root, { keyStore: null });
    expect(reader.readOnly).toBe(true);
    expect(await reader.list({ includeArchived: true })).toEqual(expected);
    expect((await reader.list()).map((r) => r.id)).toEqual([live]);
    expect((await reader.getSession(archived)).title).toBe('archived');
    expect((await reader.readMessages(live)).map((m) => m.content)).toEqual(['one']);
    await expect(reader.createSession(base)).rejects.toMatchObject({ code: 'READ_ONLY', message: OPENED_FOR_READING });
    await expect(reader.append(live, 1, [{ role: 'user', content: 'two' }])).rejects.toMatchObject({ code: 'READ_ONLY' });
    await expect(reader.delete(live)).rejects.toMatchObject({ code: 'READ_ONLY' });
    await reader.close();
    expect(await treeOf(root)).toEqual(before);
  });

  it('refuses a linked root or top directory and a foreign root exactly as the writer does', async () => {
    await storeWithTwoSessions();
    await symlink(root, join(tmp.dir, 'link'));
    for (const open of [openStore, openStoreForReading]) await expect(open(join(tmp.dir, 'link'))).rejects.toMatchObject({ code: 'UNSAFE_STORE' });
    const other = join(tmp.dir, 'other');
    await mkdir(join(other, 'archived'), { recursive: true, mode: 0o700 });
    await mkdir(join(other, 'receipts'), { mode: 0o700 });
    await mkdir(join(tmp.dir, 'elsewhere'), { mode: 0o700 });
    await symlink(join(tmp.dir, 'elsewhere'), join(other, 'sessions'));
    const refusals = await Promise.all([openStore, openStoreForReading].map((open) => open(other).then(() => 'opened', (error: { code: string; message: string }) => `${error.code}: ${error.message}`)));
    expect(refusals[0]).toMatch(/^UNSAFE_STORE: .*sessions is a symbolic link/);
    expect(refusals[1]).toBe(refusals[0]);
    // Root may hand a directory to another user: the reader refuses it too (run as root in CI).
    if (process.getuid?.() === 0) {
      await chown(root, 65534, 65534);
      await expect(openStoreForReading(root)).rejects.toMatchObject({ code: 'UNSAFE_STORE' });
    }
  });

  it('narrows a group-readable root, directory and index to 0700 and 0600, as the writer does', async () => {
    await storeWithTwoSessions();
    await chmod(root, 0o750);
    await chmod(join(root, 'sessions'), 0o755);
    await chmod(join(root, 'index.json'), 0o644);
    const reader = await openStoreForReading(root, { keyStore: null });
    await reader.close();
    expect((await stat(root)).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'sessions'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(root, 'index.json'))).mode & 0o777).toBe(0o600);
  });

  it('reads a torn index.json around, from the session files, and leaves it torn for a writer to rebuild', async () => {
    const { live, archived } = await storeWithTwoSessions();
    const torn = (await readFile(join(root, 'index.json'), 'utf8')).slice(0, 20);
    await writeFile(join(root, 'index.json'), torn);
    await writeFile(join(root, 'index.journal.jsonl'), '');
    const reader = await openStoreForReading(root, { keyStore: null });
    expect((await reader.list({ includeArchived: true })).map((r) => r.id).sort()).toEqual([live, archived].sort());
    await reader.close();
    expect(await readFile(join(root, 'index.json'), 'utf8')).toBe(torn);
  });

  it('hands a store the writer would change first to the writer: a new data directory, a delete a crash interrupted', async () => {
    const fresh = await openStoreForReading(root, { keyStore: null });
    expect(fresh.readOnly).toBe(false);
    expect(await fresh.list()).toEqual([]);
    await fresh.close();
    for (const d of ['sessions', 'archived', 'receipts']) expect((await stat(join(root, d))).mode & 0o777).toBe(0o700);
    const { live, archived } = await storeWithTwoSessions();
    // Killed right after its marker: the writer's open finishes the delete, so it is never listed.
    await mkdir(join(root, 'deleting'), { mode: 0o700 });
    await writeFile(join(root, 'deleting', `${live}.json`), `${JSON.stringify({ v: 1, sessionId: live, from: 'sessions', markedAt: new Date().toISOString() })}\n`, { mode: 0o600 });
    const reader = await openStoreForReading(root, { keyStore: null });
    expect((await reader.list({ includeArchived: true })).map((r) => r.id)).toEqual([archived]);
    await reader.close();
    // The delete is done and deleting/ is empty: the next open is a reader's.
    expect(await readdir(join(root, 'deleting'))).toEqual([]);
    const next = await openStoreForReading(root, { keyStore: null });
    expect(next.readOnly).toBe(true);
    await next.close();
  });
});

describe('readingFs', () => {
  it('reads synchronously without the inner file system, and hands it every write', async () => {
    await storeWithTwoSessions();
    const calls: string[] = [];
    const inner = new Proxy({} as DurableFs, {
      get: (_target, name: string) => (...args: unknown[]) => {
        calls.push(`${name} ${String(args[0]).slice(root.length)}`);
        return Promise.resolve();
      },
    });
    const fs = readingFs(inner);
    const file = await fs.open(join(root, 'index.json'), 'r');
    const size = (await file.stat()).size;
    expect((await file.read(size + 10, 0)).length).toBe(size);
    await expect(file.write(Buffer.from('x'))).rejects.toMatchObject({ code: 'EBADF' });
    await file.close();
    expect((await fs.readdir(join(root, 'sessions'))).length).toBe(1);
    expect((await fs.lstat(root)).isDirectory).toBe(true);
    expect((await fs.readFile(join(root, 'index.json'))).length).toBe(size);
    await expect(fs.stat(join(root, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(calls).toEqual([]);
    await fs.open(join(root, 'events.jsonl'), 'a');
    await fs.rename(join(root, 'a'), join(root, 'b'));
    await fs.mkdir(join(root, 'c'), 0o700);
    expect(calls).toEqual(['open /events.jsonl', 'rename /a', 'mkdir /c']);
  });
});
