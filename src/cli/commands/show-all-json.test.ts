import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../core/store/index.js';
import type { SessionStore } from '../../core/store/types.js';
import { makeTempDir } from '../../core/store/test-support/temp-dir.js';
import { legacyRecordLine } from '../../core/store/test-support/legacy-record.js';
import { boundedWrite, SHOW_STREAM_FLUSH_BYTES, writeAllMessagesJson } from './show-all-json.js';
import { LOG_STREAM_CHUNK_BYTES } from '../../core/store/log-stream.js';

const base = { cwd: '/w/p', gitRoot: null, branch: null, title: 'big', source: { tool: 'claude' as const }, holder: 'terminal' };
let tmp: { dir: string; cleanup: () => Promise<void> };
let store: SessionStore;
beforeEach(async () => {
  tmp = await makeTempDir();
  store = await openStore(join(tmp.dir, 'store'));
});
afterEach(async () => {
  await store.close();
  await tmp.cleanup();
});

async function streamed(id: string): Promise<{ value: Record<string, unknown>; writes: number[] }> {
  const chunks: Buffer[] = [];
  await writeAllMessagesJson(store, id, (c) => void chunks.push(Buffer.from(c)));
  return { value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, writes: chunks.map((c) => c.length) };
}

describe('baton show --all --json, streamed', () => {
  it('prints what the buffered read gives (messages, session, damage, notes), in bounded writes', async () => {
    const messages = Array.from({ length: 3_000 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      content: `${i} ${'ü "quoted" \\ \u2028 😀 '.repeat(10)}`,
      ...(i % 7 === 0 ? { toolCalls: [{ id: `t${i}`, name: 'Bash', input: { command: 'ls' } }] } : {}),
    }));
    const s = await store.createSession(base, messages);
    const { value, writes } = await streamed(s.id);
    expect(value).toMatchObject({ version: 1, command: 'show', ok: true, damage: [], notes: [] });
    expect(value.messages).toEqual(await store.readMessages(s.id));
    expect(value.session).toEqual(await store.getSession(s.id));
    expect(writes.length).toBeGreaterThan(1);
    // A run of records spliced in place leaves in pieces of about SHOW_STREAM_FLUSH_BYTES (a pipe's
    // capacity), not once per chunk of the log read, so a reader can take one while the next is made.
    expect(LOG_STREAM_CHUNK_BYTES).toBeGreaterThan(4 * SHOW_STREAM_FLUSH_BYTES);
    expect(Math.max(...writes)).toBeLessThanOrEqual(SHOW_STREAM_FLUSH_BYTES + 4096);
    expect(writes.length).toBeGreaterThan(10);
  });

  it('reads earlier-format lines, skips a damaged line and records it, drops a repeated id and a stale seq', async () => {
    const s = await store.createSession(base, [{ role: 'user', content: 'first' }]);
    const log = join(store.sessionDir(s.id), 'messages.jsonl');
    const rec = (seq: number, id: string, content: string) => legacyRecordLine({ role: 'user', content, id, seq, createdAt: '2026-11-30T00:00:00.000Z', epoch: 1 }).line;
    const damaged = Buffer.from(rec(1, 'm-x', 'will be damaged').toString().replace('damaged', 'DAMAGED'));
    await appendFile(log, Buffer.concat([rec(1, 'm-old', 'legacy line'), damaged, rec(2, 'm-old', 'repeat id'), rec(1, 'm-stale', 'stale seq'), rec(3, 'm-last', 'last')]));
    const { value } = await streamed(s.id);
    const contents = (value.messages as Array<{ content: string }>).map((m) => m.content);
    expect(contents).toEqual(['first', 'legacy line', 'last']);
    expect(value.messages).toEqual(await store.readMessages(s.id));
    expect(value.damage).toHaveLength(1);
    expect((await store.getSession(s.id)).damaged).toHaveLength(1);
  });

  it('through the real CLI: one JSON line whose messages match the store', async () => {
    const s = await store.createSession(base, Array.from({ length: 500 }, (_, i) => ({ role: 'user' as const, content: `line ${i}` })));
    await store.close();
    const cli = join(import.meta.dirname, '..', 'run.ts');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', cli, 'show', s.id, '--all', '--json'], { env: { ...process.env, BATON_HOME: join(tmp.dir, 'store') }, maxBuffer: 64 * 1024 * 1024 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
      ),
    );
    store = await openStore(join(tmp.dir, 'store'));
    expect(stdout.trim().split('\n')).toHaveLength(1);
    const value = JSON.parse(stdout) as { messages: unknown[] };
    expect(value.messages).toEqual(await store.readMessages(s.id));
  });

  it('through the real CLI into a reader that leaves early (`| head`): exit 1, no stack trace', async () => {
    const s = await store.createSession(base, Array.from({ length: 3_000 }, (_, i) => ({ role: 'user' as const, content: `line ${i} ${'x'.repeat(200)}` })));
    await store.close();
    const cli = join(import.meta.dirname, '..', 'run.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'show', s.id, '--all', '--json'], { env: { ...process.env, BATON_HOME: join(tmp.dir, 'store') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    // Read the first piece, then close the pipe's read end, as `head -c` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    store = await openStore(join(tmp.dir, 'store'));
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
  });

  it('a session that does not exist writes nothing and throws NOT_FOUND', async () => {
    const chunks: Buffer[] = [];
    await expect(writeAllMessagesJson(store, 's-missing', (c) => void chunks.push(c))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(chunks).toEqual([]);
  });

  it('into a real pipe: waits for the reader only once the queue passes its bound, and every byte arrives in order', async () => {
    // A reader slower than the writer: it pauses after every read.
    const reader = spawn(process.execPath, ['-e', "const h=require('crypto').createHash('sha256');let n=0;process.stdin.on('data',d=>{h.update(d);n+=d.length;process.stdin.pause();setTimeout(()=>process.stdin.resume(),1)});process.stdin.on('end',()=>process.stdout.write(h.digest('hex')+' '+n))"], { stdio: ['pipe', 'pipe', 'inherit'] });
    const answer = new Promise<string>((resolve) => {
      let out = '';
      reader.stdout.on('data', (d: Buffer) => void (out += d.toString()));
      reader.stdout.on('end', () => resolve(out));
    });
    const bound = 1024 * 1024;
    const write = boundedWrite(reader.stdin, bound);
    const hash = createHash('sha256');
    let bytes = 0;
    let waits = 0;
    let yields = 0;
    let falses = 0;
    let maxQueued = 0;
    for (let i = 0; i < 200; i++) {
      const piece = Buffer.alloc(64 * 1024 + i, i);
      hash.update(piece);
      bytes += piece.length;
      const pending = write(piece);
      const queued = reader.stdin.writableLength;
      if (queued > 16 * 1024) falses++;
      maxQueued = Math.max(maxQueued, queued);
      // Past the bound it waits for the reader; below it, a piece the pipe did not take yields one turn.
      if (queued > bound) waits++;
      else if (queued > 0) yields++;
      if (queued > 0) expect(pending).toBeInstanceOf(Promise);
      if (pending) await pending;
    }
    reader.stdin.end();
    expect(await answer).toBe(`${hash.digest('hex')} ${bytes}`);
    expect(maxQueued).toBeLessThanOrEqual(bound + 64 * 1024 + 200);
    // The old wiring waited after every piece the stream did not take at once.
    expect(waits).toBeGreaterThan(0);
    expect(waits).toBeLessThan(falses / 4);
    expect(yields).toBeGreaterThan(0);
  });
});
