import fc from 'fast-check';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../core/store/index.js';
import type { KeyStore } from '../../core/store/at-rest/key-store.js';
import { encodeNewRecord, type StoredRecord } from '../../core/store/record-codec.js';
import type { SessionStore } from '../../core/store/types.js';
import { makeTempDir } from '../../core/store/test-support/temp-dir.js';
import { legacyRecordLine } from '../../core/store/test-support/legacy-record.js';
import type { MessageInput } from '../../shared/message.js';
import { writeAllMessagesJson } from './show-all-json.js';

/**
 * Issue 20: `show --all --json` prints each record from its stored bytes (no parse, no
 * serialisation). Its output must be byte for byte what parsing every record and serialising it
 * again gives (the buffered form's messages, with the session read after them), over logs with
 * every kind of content and every kind of damage the reader meets.
 */
const base = { cwd: '/w/p', gitRoot: null, branch: null, title: 'corpus', source: { tool: 'claude' as const }, holder: 'terminal' };
const createdAt = '2026-11-30T00:00:00.000Z';

/** What parse + serialise gives: every accepted record through JSON.stringify. */
async function reference(store: SessionStore, id: string): Promise<Buffer> {
  const messages = await store.readMessages(id);
  const session = await store.getSession(id);
  return Buffer.from(`{"version":1,"command":"show","ok":true,"messages":[${messages.map((m) => JSON.stringify(m)).join(',')}],"session":${JSON.stringify(session)},"damage":${JSON.stringify(session.damaged ?? [])},"notes":${JSON.stringify(session.notes ?? [])}}\n`);
}

/** The streamed output, through a sink that sometimes makes the writer wait (a pipe read slowly). */
async function streamed(store: SessionStore, id: string, slow: boolean): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await writeAllMessagesJson(store, id, (chunk) => {
    chunks.push(Buffer.from(chunk));
    return slow ? new Promise((r) => setImmediate(r)) : undefined;
  });
  return Buffer.concat(chunks);
}

const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', 'quote " backslash \\ newline \n tab \t', '\u2028\u2029', 'lone \ud800 surrogate', '😀 中文 ü', '"bcrc":"00000000"}', '{"id":"x","seq":1}', '\u0000\u001f\u007f'),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.oneof(text, fc.constantFrom('id', 'seq', '__proto__', '1', 'crc')), tie('v'), { maxKeys: 3 })),
})).v;
const messageArb: fc.Arbitrary<MessageInput> = fc.record(
  {
    role: fc.constantFrom('user', 'assistant', 'tool', 'system'),
    content: text,
    id: fc.oneof(fc.constantFrom('m-a', 'm-b', 'a"b', 'a\\b', 'é', '😀', '7yzx', 'e6ad'), fc.string({ unit: 'binary', minLength: 1, maxLength: 8 })),
    toolCalls: fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 5 }), name: fc.constantFrom('Bash', 'Edit'), input: json }), { maxLength: 2 }),
    extra: json,
  },
  { requiredKeys: ['role', 'content'] },
) as fc.Arbitrary<MessageInput>;

/** What is done to the log after landing: lines another writer or an earlier Baton left, damage, a torn end. */
const tamperArb = fc.array(fc.constantFrom('legacy', 'repeat-id', 'stale-seq', 'damage', 'torn', 'fresh'), { maxLength: 4 });

async function tamper(store: SessionStore, id: string, ops: readonly string[], seed: number): Promise<void> {
  const log = join(store.sessionDir(id), 'messages.jsonl');
  const landed = await store.readMessages(id);
  let seq = (landed.at(-1)?.seq ?? -1) + 1;
  const line = (fields: Record<string, unknown>) => encodeNewRecord({ role: 'user', content: 'x', createdAt, epoch: 1, ...fields } as Omit<StoredRecord, 'crc'>).line;
  for (const [i, op] of ops.entries()) {
    if (op === 'legacy') await appendFile(log, legacyRecordLine({ role: 'assistant', content: `legacy ${i} "é"`, id: `legacy-${i}`, seq: seq++, createdAt, epoch: 1 }).line);
    if (op === 'repeat-id' && landed.length > 0) await appendFile(log, line({ id: landed[seed % landed.length]!.id, seq: seq++ }));
    if (op === 'stale-seq') await appendFile(log, line({ id: `stale-${i}`, seq: 0 }));
    if (op === 'fresh') await appendFile(log, line({ id: `fresh-${i}`, seq: seq++, nested: { id: 'inner', seq: 99 } }));
    if (op === 'damage') {
      const bytes = await readFile(log);
      if (bytes.length > 2) {
        const at = (seed * 7919 + i) % (bytes.length - 1);
        if (bytes[at] !== 0x0a) bytes[at]! ^= 0x04;
        await writeFile(log, bytes);
      }
    }
    if (op === 'torn') await appendFile(log, line({ id: `torn-${i}`, seq: seq++ }).subarray(0, 20));
  }
}

/** Landing refuses two different messages with one id: repeats get a suffix (repeats in the log come from tamper). */
function ownIds(messages: MessageInput[]): MessageInput[] {
  const seen = new Set<string>();
  return messages.map((m, i) => {
    if (m.id === undefined) return m;
    const id = seen.has(m.id) ? `${m.id}#${i}` : m.id;
    seen.add(id);
    return { ...m, id };
  });
}

function memoryKeyStore(): KeyStore {
  const secrets = new Map<string, Buffer>();
  return { label: 'memory (test)', read: async (a) => secrets.get(a), write: async (a, s) => void secrets.set(a, s), remove: async (a) => secrets.delete(a) };
}

describe('show --all --json prints exactly what parse + serialise gives', () => {
  let tmp: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    tmp = await makeTempDir();
  });
  afterAll(() => tmp.cleanup());

  it('over 300 generated sessions: unicode, escapes, nested ids and seqs, custom ids, earlier-format lines, repeats, stale seqs, damage, torn ends', async () => {
    const store = await openStore(join(tmp.dir, 'plain'), { keyStore: null });
    let cases = 0;
    let damaged = 0;
    let parsedLines = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(messageArb, { minLength: 0, maxLength: 10 }), tamperArb, fc.nat(), fc.boolean(), async (messages, ops, seed, slow) => {
          const s = await store.createSession(base, ownIds(messages));
          await tamper(store, s.id, ops, seed);
          const got = await streamed(store, s.id, slow);
          expect(() => JSON.parse(got.toString('utf8'))).not.toThrow();
          expect(got.toString('utf8')).toBe((await reference(store, s.id)).toString('utf8'));
          cases++;
          if (((await store.getSession(s.id)).damaged ?? []).length > 0) damaged++;
          if (ops.includes('legacy') || messages.some((m) => /["\\]/.test(m.id ?? ''))) parsedLines++;
        }),
        { numRuns: 300 },
      );
    } finally {
      await store.close();
    }
    expect(cases).toBe(300);
    // The corpus did reach the paths it is for: recorded damage, and lines that must be parsed.
    expect(damaged).toBeGreaterThan(10);
    expect(parsedLines).toBeGreaterThan(10);
  });

  it('lines longer than the read chunk and the output buffer, around short ones, to a slow reader', async () => {
    const store = await openStore(join(tmp.dir, 'huge'), { keyStore: null });
    try {
      const huge = (n: number, c: string) => `${c.repeat(n)} "q" \\ é`;
      const s = await store.createSession(base, [
        { role: 'user', content: 'short' },
        { role: 'assistant', content: huge(2_500_000, 'a') },
        ...Array.from({ length: 3_000 }, (_, i) => ({ role: 'user' as const, content: `m${i} ${'ü'.repeat(i % 300)}` })),
        { role: 'tool', content: huge(1_100_000, '😀') },
        { role: 'user', content: 'last' },
      ]);
      await tamper(store, s.id, ['legacy', 'fresh', 'damage'], 3);
      for (const slow of [false, true]) expect((await streamed(store, s.id, slow)).equals(await reference(store, s.id))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('a store encrypted at rest: 40 generated sessions, some with a damaged byte', async () => {
    const store = await openStore(join(tmp.dir, 'sealed'), { keyStore: memoryKeyStore() });
    expect(store.atRest.state).toBe('on');
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(messageArb, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.nat(), async (messages, damage, seed) => {
          const s = await store.createSession(base, ownIds(messages));
          if (damage) await tamper(store, s.id, ['damage'], seed);
          const got = await streamed(store, s.id, seed % 2 === 0);
          expect(got.toString('utf8')).toBe((await reference(store, s.id)).toString('utf8'));
        }),
        { numRuns: 40 },
      );
    } finally {
      await store.close();
    }
  });

  it('a store encrypted at rest: 300 generated sessions with tampered records (a flipped bit is damage, a record from another session is refused)', async () => {
    const store = await openStore(join(tmp.dir, 'tampered'), { keyStore: memoryKeyStore() });
    expect(store.atRest.state).toBe('on');
    const kinds = { flip: 0, foreignSwap: 0, foreignInsert: 0 };
    let reported = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(messageArb, { minLength: 2, maxLength: 8 }),
          fc.constantFrom('flip', 'foreignSwap', 'foreignInsert'),
          fc.nat(),
          fc.boolean(),
          async (messages, kind, seed, slow) => {
            // Another session of the same store, same key: its records are sealed for its own id.
            const other = await store.createSession(base, messages.map((_, i) => ({ role: 'user' as const, content: `FOREIGN ${seed} ${i}`, id: `foreign-${seed}-${i}` })));
            const s = await store.createSession(base, ownIds(messages));
            const log = join(store.sessionDir(s.id), 'messages.jsonl');
            const lines = (await readFile(log)).toString('latin1').split('\n').slice(0, -1);
            const foreign = (await readFile(join(store.sessionDir(other.id), 'messages.jsonl'))).toString('latin1').split('\n').slice(0, -1);
            // A line before the last, so a valid record follows it and the reader reports the damage.
            const target = seed % (lines.length - 1);
            const targetId = (await store.readMessages(s.id))[target]!.id;
            if (kind === 'flip') {
              const line = Buffer.from(lines[target]!, 'latin1');
              const at = (seed >>> 3) % line.length;
              line[at]! ^= 1 << (seed % 8);
              // A flip that makes a newline would split the line: another byte of it then.
              if (line[at] === 0x0a) line[at]! ^= 0x03;
              lines[target] = line.toString('latin1');
            } else if (kind === 'foreignSwap') lines[target] = foreign[target]!; // same seq, sealed for the other session
            else lines.splice(target + 1, 0, foreign[Math.min(foreign.length - 1, target + 1)]!);
            await writeFile(log, Buffer.from(`${lines.join('\n')}\n`, 'latin1'));
            kinds[kind]++;

            const got = await streamed(store, s.id, slow);
            expect(got.toString('utf8')).toBe((await reference(store, s.id)).toString('utf8'));
            const printed = JSON.parse(got.toString('utf8')) as { messages: Array<{ id: string; content: string }>; damage: unknown[] };
            // Nothing of the other session is ever printed, and the damage is reported.
            expect(printed.messages.some((m) => m.id.startsWith('foreign-') || String(m.content).startsWith('FOREIGN '))).toBe(false);
            expect(printed.damage.length).toBeGreaterThan(0);
            if (kind !== 'foreignInsert') expect(printed.messages.some((m) => m.id === targetId)).toBe(false);
            else expect(printed.messages.map((m) => m.id)).toEqual((await store.readMessages(s.id)).map((m) => m.id));
            reported++;
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      await store.close();
    }
    expect(reported).toBe(300);
    for (const n of Object.values(kinds)) expect(n).toBeGreaterThan(50);
  });
});
