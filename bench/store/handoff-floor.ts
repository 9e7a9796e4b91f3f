// The per-record floor of `baton handoff`, each part timed in this (fresh) process; prints JSON.
//   node --import tsx bench/store/handoff-floor.ts INPUT.jsonl SCRATCH.jsonl [--encrypt]   (run by big-session.ts)
// --encrypt (the store is encrypted at rest, issue 17): one AES-256-GCM seal per record (fresh
// nonce from a pooled CSPRNG draw, the record's session and seq as associated data) and its base64
// line, and the write and read-back of those sealed lines.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { redactValue } from '../../src/core/redact/redact-value.js';
import { contextWithoutSummary } from '../../src/core/context/context-transfer.js';
import type { MessageInput, MessageRecord } from '../../src/shared/message.js';

const [input, out, flag] = process.argv.slice(2) as [string, string, string | undefined];
const ENCRYPT = flag === '--encrypt';
const t = () => performance.now();
// CPU of the parts alone (not of tsx loading this script), to set beside the baton process's CPU.
const cpuAt = process.cpuUsage();
let at = t();
// Read in 1 MiB chunks, as `baton handoff` now does (a 1 GB input is more than one string can hold).
const messages: MessageInput[] = [];
{
  let carry = '';
  for await (const chunk of createReadStream(input, { encoding: 'utf8', highWaterMark: 1024 * 1024 })) {
    const parts = (carry + (chunk as string)).split('\n');
    carry = parts.pop()!;
    for (const line of parts) if (line) messages.push(JSON.parse(line) as MessageInput);
  }
  if (carry) messages.push(JSON.parse(carry) as MessageInput);
}
const parse = t() - at;
at = t();
// The encryption floor: one seal per record, nothing else (no key lookups, no envelope CRC).
let sealed: string[] | null = null;
if (ENCRYPT) {
  const key = randomBytes(32);
  const nonces = randomBytes(12 * messages.length);
  sealed = new Array<string>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const nonce = nonces.subarray(12 * i, 12 * i + 12);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(Buffer.from(`s-floor.${i}`));
    const body = Buffer.concat([nonce, cipher.update(JSON.stringify({ ...messages[i], seq: i }), 'utf8'), cipher.final(), cipher.getAuthTag()]);
    sealed[i] = `{"s":${i},"e":"${body.toString('base64')}"}`;
  }
}
const encrypt = t() - at;
at = t();
const file = await open(out, 'w');
let chunk: string[] = [];
for (let i = 0; i < messages.length; i++) {
  chunk.push(`${sealed ? sealed[i] : JSON.stringify({ ...messages[i], seq: i })}\n`);
  if (chunk.length === 10_000 || i === messages.length - 1) {
    await file.write(chunk.join(''));
    chunk = [];
  }
}
await file.sync();
await file.close();
const write = t() - at;
at = t();
{
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(out, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  hash.digest('hex');
}
const readBack = t() - at;
at = t();
// Issue 12's redaction over the same messages, as the landing runs it.
await redactValue({ title: 'floor', messages, model: null, permission: null, tasks: [] });
const redact = t() - at;
at = t();
// Issues 9/11: anchors and the token estimate over the records (the summary is rendered from the same state).
contextWithoutSummary({ source: { tool: 'baton' }, model: null }, messages.map((m, seq) => ({ ...m, id: `m-${seq}`, seq, crc: '', createdAt: '' }) as MessageRecord));
const context = t() - at;
await rm(out);
const cpu = process.cpuUsage(cpuAt);
process.stdout.write(JSON.stringify({ parse, encrypt, write, readBack, redact, context, cpuMs: (cpu.user + cpu.system) / 1000 }));
