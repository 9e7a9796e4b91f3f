// Issue 17: where the per-record cost of opening an encrypted log line goes (the landing's
// read-back and `show` open every record), each part timed over the same 100,000 sealed lines,
// against the floor of one AES-256-GCM decipher per record measured in the same run.
//   npx tsx bench/store/record-open.ts [count=100000] [runs=5]
import { createDecipheriv, createSecretKey, webcrypto } from 'node:crypto';
import { AtRestCipher } from '../../src/core/store/at-rest/at-rest-cipher.js';
import { newDataKey, NONCE_BYTES, openBytes, TAG_BYTES } from '../../src/core/store/at-rest/aead.js';
import { parseEnvelope, parseEnvelopeJson } from '../../src/core/store/at-rest/line-envelope.js';
import { printTable, summarize } from '../stats.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 5);
const key = newDataKey();
const cipher = new AtRestCipher('/nonexistent', key);
const SESSION = 's-0123456789abcdef';
const lines = Array.from({ length: COUNT }, (_, i) => {
  const plain = Buffer.from(JSON.stringify({ seq: i, id: `m-${i}`, role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(9)}`, crc: '00000000' }));
  return cipher.sealRecordLine(SESSION, i, plain);
});
const codec = cipher.recordCodec(SESSION);
const envelopes = lines.map((line) => parseEnvelope(line)!);

function time(fn: () => void): { ms: number; cpuMs: number } {
  const ms: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const c = process.cpuUsage();
    const at = performance.now();
    fn();
    ms.push(performance.now() - at);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return { ms: summarize(ms).p50, cpuMs: summarize(cpu).p50 };
}

// The floor: one decipher per record over the sealed bytes already in memory (no parse, no base64).
const floor = time(() => {
  for (let i = 0; i < COUNT; i++) {
    const sealed = envelopes[i]!.sealed;
    const d = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, NONCE_BYTES));
    d.setAAD(Buffer.from(`baton-record-v1\0${SESSION}\0${i}`));
    d.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    d.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES));
    d.final();
  }
});
const parse = time(() => {
  for (const line of lines) parseEnvelopeJson(line);
});
const byPosition = time(() => {
  for (const line of lines) parseEnvelope(line);
});
// What openLine did before (issue 17, fifth sitting): the checked JSON parse, then the decipher.
const before = time(() => {
  for (let i = 0; i < COUNT; i++) {
    const env = parseEnvelopeJson(lines[i]!)!;
    if (!openBytes(key, env.sealed, `baton-record-v1\0${SESSION}\0${env.seq}`)) throw new Error('a line did not open');
  }
});
const open = time(() => {
  for (const line of lines) if (!codec.openLine(line)) throw new Error('a line did not open');
});
// The decipher itself, by the ways node:crypto allows (issue 17, sixth sitting): there is no
// reusable GCM context (a Decipheriv takes one nonce), so "reuse" can only mean the key schedule's
// input, a KeyObject made once; "batch" means WebCrypto's async decrypt, many in flight at once.
const aadOf = (i: number) => Buffer.from(`baton-record-v1\0${SESSION}\0${i}`);
const keyObject = createSecretKey(key.key);
const withKeyObject = time(() => {
  for (let i = 0; i < COUNT; i++) {
    const sealed = envelopes[i]!.sealed;
    const d = createDecipheriv('aes-256-gcm', keyObject, sealed.subarray(0, NONCE_BYTES));
    d.setAAD(aadOf(i));
    d.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    d.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES));
    d.final();
  }
});
const cryptoKey = await webcrypto.subtle.importKey('raw', key.key, 'AES-GCM', false, ['decrypt']);
async function timeAsync(fn: () => Promise<void>): Promise<{ ms: number; cpuMs: number }> {
  const c = process.cpuUsage();
  const at = performance.now();
  await fn();
  const d = process.cpuUsage(c);
  return { ms: performance.now() - at, cpuMs: (d.user + d.system) / 1000 };
}
const webCrypto: Record<number, { ms: number; cpuMs: number }> = {};
for (const batch of [1, 64, 1024]) {
  webCrypto[batch] = await timeAsync(async () => {
    for (let i = 0; i < COUNT; i += batch) {
      const inFlight: Promise<ArrayBuffer>[] = [];
      for (let j = i; j < Math.min(COUNT, i + batch); j++) {
        const sealed = envelopes[j]!.sealed;
        inFlight.push(webcrypto.subtle.decrypt({ name: 'AES-GCM', iv: sealed.subarray(0, NONCE_BYTES), additionalData: aadOf(j) }, cryptoKey, sealed.subarray(NONCE_BYTES)));
      }
      await Promise.all(inFlight);
    }
  });
}

const row = (measure: string, t: { ms: number; cpuMs: number }) => ({ measure, ms: t.ms, 'CPU ms': t.cpuMs, 'µs / record': (t.ms * 1000) / COUNT, 'ratio to floor': t.ms / floor.ms });
console.log(`${COUNT.toLocaleString('en')} sealed record lines (${lines[0]!.length} bytes each), ${RUNS} runs, medians; load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
printTable([
  row('floor: one AES-256-GCM decipher per record (bytes in memory)', floor),
  row('parseEnvelopeJson alone (JSON + CRC + base64)', parse),
  row('parseEnvelope alone (the written layout from its bytes, CRC in place; base64)', byPosition),
  row('before: parseEnvelopeJson + decipher (the old openLine)', before),
  row('openLine: the store opening a record line (as read-back and show do)', open),
  row('decipher with the key as a KeyObject made once (not adopted: within the noise of the floor)', withKeyObject),
  ...[1, 64, 1024].map((b) => row(`WebCrypto subtle.decrypt, ${b} in flight at a time (one run)`, webCrypto[b]!)),
]);
