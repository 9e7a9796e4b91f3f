import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { openStore } from '../../index.js';
import type { NewSession } from '../../types.js';
import { FILE_MAGIC } from '../at-rest-cipher.js';
import { isEnvelope, parseEnvelope } from '../line-envelope.js';

/**
 * A store worth converting (three sessions, one archived, with artifacts, handoffs, receipts and
 * events) and the checks after a crash: every session reads back whole, old or new.
 */
export interface Expected {
  sessions: Array<{ id: string; title: string; contents: string[]; artifact: { ref: string; text: string } }>;
  events: number;
}

const base: NewSession = { cwd: '/w', gitRoot: null, branch: null, title: '', source: { tool: 'claude' }, holder: 'terminal' };

export async function buildStore(root: string, encrypted: boolean): Promise<Expected> {
  const store = await openStore(root, encrypted ? {} : { keyStore: null });
  const expected: Expected = { sessions: [], events: 0 };
  for (let i = 0; i < 3; i++) {
    const title = `session ${i}`;
    const contents = Array.from({ length: 5 + i * 3 }, (_, j) => `message ${i}.${j} ${'x'.repeat(j * 7)}`);
    const s = await store.createSession({ ...base, title }, contents.slice(0, 2).map((content) => ({ role: 'user' as const, content })));
    await store.append(s.id, 1, contents.slice(2).map((content) => ({ role: 'assistant' as const, content })));
    const text = `artifact of ${i}`;
    const { ref } = await store.putArtifact(s.id, Buffer.from(text), 'txt');
    await store.recordHandoff(s.id, { handoff_id: `h-${i}` });
    await store.putReceipt({ handoffId: `h-${i}-${s.id}`, sessionId: s.id, payloadSha256: 'b'.repeat(64), answer: { ok: true }, createdAt: new Date().toISOString() });
    await store.appendEvent({ kind: 'handoff', i });
    expected.events += 1;
    if (i === 2) await store.archive(s.id);
    expected.sessions.push({ id: s.id, title, contents, artifact: { ref, text } });
  }
  await store.close();
  return expected;
}

/** Problems found reading the store back (empty when every session is whole). */
export async function checkStore(root: string, expected: Expected): Promise<string[]> {
  const problems: string[] = [];
  let store;
  try {
    store = await openStore(root, { metadataFlushMs: 0 });
  } catch (error) {
    return [`open: ${(error as Error).message}`];
  }
  try {
    for (const e of expected.sessions) {
      try {
        const doc = await store.getSession(e.id);
        if (doc.title !== e.title) problems.push(`${e.id}: title ${doc.title}`);
        const got = (await store.readMessages(e.id)).map((r) => r.content);
        if (JSON.stringify(got) !== JSON.stringify(e.contents)) problems.push(`${e.id}: ${got.length} of ${e.contents.length} messages read back`);
        const art = Buffer.from(await store.readArtifact(e.id, e.artifact.ref)).toString();
        if (art !== e.artifact.text) problems.push(`${e.id}: artifact differs`);
        if ((doc.damaged?.length ?? 0) > 0) problems.push(`${e.id}: damage recorded`);
      } catch (error) {
        problems.push(`${e.id}: ${(error as Error).message}`);
      }
    }
    const events = await store.readEvents();
    if (events.length !== expected.events) problems.push(`events: ${events.length} of ${expected.events}`);
    if ((await store.list({ includeArchived: true })).length !== expected.sessions.length) problems.push('index: sessions missing');
  } finally {
    await store.close();
  }
  return problems;
}

/** Files of the store's data that are not ciphertext under `keyId` (whole-file header or every line an envelope). */
export async function notUnderKey(root: string, keyId: string): Promise<string[]> {
  const bad: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const rel = relative(root, path);
    if (rel === 'encryption.json' || entry.name.startsWith('.')) continue;
    const bytes = await readFile(path);
    const whole = bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC) && bytes.subarray(FILE_MAGIC.length, FILE_MAGIC.length + 16).toString('latin1') === keyId;
    const lines = bytes.toString('utf8').split('\n').filter(Boolean);
    const sealedLines = rel.endsWith('.jsonl') && lines.every((l) => isEnvelope(Buffer.from(l)) && parseEnvelope(Buffer.from(l))?.keyId === keyId);
    if (!whole && !sealedLines) bad.push(rel);
  }
  return bad;
}
