// The full floor of an import (issue 20: "the floors include what the product must do per record"),
// bundled by big-import.ts into one CommonJS file and run as its own node process, like the import:
//   node import-floor.cjs TRANSCRIPT.jsonl parse|redact|seal|full|summary [SCRATCH.jsonl] [--encrypt]
// Each mode adds a part, so the bench prints each part's CPU as the difference between two processes:
// - parse:  read the file in 1 MiB chunks and JSON.parse every line (what parse-floor.cjs does);
// - redact: + the product's own redaction (StreamRedactor, the same code the landing bundles) over
//   each line's `message` (the part of a line an import turns into a message), in batches of
//   LANDING_BATCH_CHARS, with the keyed secrets gathered so far (the import's plan gathers them in
//   its first read); the bench takes the parse part from parse-floor.cjs, `parse` here is for checks;
// - seal (--encrypt only: the store is encrypted at rest, issue 17): + one AES-256-GCM seal per
//   message, as bench/store/handoff-floor.ts counts it (fresh nonce from a pooled CSPRNG draw, the
//   record's session and seq as associated data, nonce‖ciphertext‖tag in a base64 line
//   `{"s":seq,"e":…}`; no key lookup, no envelope CRC); full and summary then write those lines;
// - full:   + one JSONL line per message written to SCRATCH, fsync'd, read back and sha256'd;
// - summary: full + the summary's totals and anchors (issue 9: the floors include them): each redacted
//   message, as a record with its text parts as content and its tool_use parts as calls, through the
//   product's LandingTotals (digest hashes, extractive summary state, token units, last turns).
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { collectKeyedSecrets, StreamRedactor } from '../../src/core/redact/redact-value.js';
import { LANDING_BATCH_CHARS } from '../../src/core/handoff/landing-batches.js';
import { LandingTotals } from '../../src/core/handoff/landing-totals.js';
import type { MessageRecord, ToolCall } from '../../src/shared/message.js';

const ENCRYPT = process.argv.includes('--encrypt');
const [input, mode, scratch] = process.argv.slice(2).filter((a) => a !== '--encrypt') as [string, 'parse' | 'redact' | 'seal' | 'full' | 'summary', string | undefined];
if (!['parse', 'redact', 'seal', 'full', 'summary'].includes(mode) || ((mode === 'full' || mode === 'summary') && !scratch) || (mode === 'seal' && !ENCRYPT)) {
  process.stderr.write('usage: import-floor.cjs TRANSCRIPT parse|redact|seal|full|summary [SCRATCH] [--encrypt]\n');
  process.exit(2);
}
const REDACT = mode !== 'parse';
const WRITE = mode === 'full' || mode === 'summary';
const SEAL = ENCRYPT && (mode === 'seal' || WRITE);
const TOTALS = mode === 'summary';
/** Bytes of JSONL gathered before one write, as the landing writes in batches. */
const WRITE_CHUNK_CHARS = 1024 * 1024;

const out = WRITE ? openSync(scratch!, 'w') : -1;
let pending = '';
let seq = 0;
const write = (text: string, force = false) => {
  pending += text;
  if (pending.length >= WRITE_CHUNK_CHARS || (force && pending)) {
    writeSync(out, pending);
    pending = '';
  }
};

/** A redacted Claude message as the record the totals read: text parts (and tool results) as content, tool_use parts as calls. */
function recordOf(message: unknown, seq: number): MessageRecord {
  const m = (message ?? {}) as { role?: unknown; content?: unknown };
  const parts = typeof m.content === 'string' ? [m.content] : Array.isArray(m.content) ? m.content : [];
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const part of parts as unknown[]) {
    const p = (part ?? {}) as Record<string, unknown>;
    if (typeof part === 'string') content += part;
    else if (p.type === 'text' && typeof p.text === 'string') content += p.text;
    else if (p.type === 'tool_use') toolCalls.push({ id: String(p.id), name: String(p.name), input: p.input });
    else if (p.type === 'tool_result') content += typeof p.content === 'string' ? p.content : JSON.stringify(p.content ?? '');
  }
  return { id: `floor-${seq}`, seq, role: m.role === 'assistant' ? 'assistant' : 'user', content, crc: '00000000', createdAt: '', ...(toolCalls.length > 0 ? { toolCalls } : {}) } as MessageRecord;
}

const key = randomBytes(32);
const NONCE_POOL = 4096;
let nonces = Buffer.alloc(0);
let nonceAt = 0;
/** The line as stored: the plaintext JSON, or (encrypted at rest) its one seal, the record's place as associated data. */
function stored(json: string, seq: number): string {
  if (!SEAL) return json;
  if (nonceAt + 12 > nonces.length) {
    nonces = randomBytes(12 * NONCE_POOL);
    nonceAt = 0;
  }
  const nonce = nonces.subarray(nonceAt, (nonceAt += 12));
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(`baton-record-v1\0floor\0${seq}`));
  const body = Buffer.concat([nonce, cipher.update(json, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `{"s":${seq},"e":"${body.toString('base64')}"}`;
}

const totals = new LandingTotals();
// One redactor for the session, as the landing has; its keyed set grows batch by batch here.
const keyed = new Set<string>();
const redactor = new StreamRedactor(keyed);
let batch: unknown[] = [];
let batchChars = 0;
const flush = async () => {
  if (batch.length === 0) return;
  for (const message of batch) collectKeyedSecrets(message, keyed);
  const redacted = await redactor.redact(batch);
  for (const message of redacted) {
    if (TOTALS) totals.add(recordOf(message, seq));
    if (WRITE) write(`${stored(JSON.stringify({ seq, message }), seq)}\n`);
    else if (SEAL) stored(JSON.stringify({ seq, message }), seq);
    seq++;
  }
  batch = [];
  batchChars = 0;
};

// A CommonJS bundle has no top-level await.
async function main(): Promise<void> {
  const fd = openSync(input, 'r');
  const chunk = Buffer.alloc(1024 * 1024);
  let carry = '';
  let lines = 0;
  for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
    const parts = (carry + chunk.toString('utf8', 0, n)).split('\n');
    carry = parts.pop()!;
    for (const line of parts) {
      if (!line) continue;
      const value = JSON.parse(line) as { message?: unknown };
      lines++;
      if (!REDACT || value.message === undefined) continue;
      batch.push(value.message);
      batchChars += line.length;
      if (batchChars >= LANDING_BATCH_CHARS) await flush();
    }
  }
  closeSync(fd);
  await flush();
  if (WRITE) {
    write('', true);
    fsyncSync(out);
    closeSync(out);
    // Read back what landed and hash it, in the same 1 MiB chunks.
    const back = openSync(scratch!, 'r');
    const hash = createHash('sha256');
    for (let n; (n = readSync(back, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
    closeSync(back);
    hash.digest('hex');
    rmSync(scratch!);
  }
  // What the manifest takes from the totals, made as the landing makes it.
  if (TOTALS && (totals.digest().message_count !== seq || totals.conversation().state.messages !== seq)) process.exit(1);
  if (lines === 0) process.exit(1);
}
main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
