import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeDurableFs } from '../fs/durable-fs.js';
import type { MessageInput } from '../../shared/message.js';
import { AtRestCipher } from './at-rest/at-rest-cipher.js';
import { newDataKey } from './at-rest/aead.js';
import { readBackLanding } from './landing-read-back.js';
import { LANDING_CHUNK_BYTES, LandingWriter } from './landing-writer.js';
import { plainRecordCodec, type RecordCodec, type StoredRecord } from './record-codec.js';
import { makeTempDir } from './test-support/temp-dir.js';

/**
 * The landing's sealed path (issue 17 with issue 20): each record's plaintext line is made in a
 * buffer the writer keeps and its envelope sealed straight into the write chunk. Whatever the
 * sizes — lines that fill a chunk, one longer than a chunk, multi-byte text, records that outgrow
 * the plaintext buffer — the sealed log opens to exactly the bytes an unencrypted landing writes,
 * and what the writer kept (check values, hashes, checkpoint) is what the read-back finds.
 */
let tmp: Awaited<ReturnType<typeof makeTempDir>>;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.cleanup());

const SESSION = 's-sealed-writer';
const NOW = '2026-12-03T00:00:00.000Z';

async function land(name: string, codec: RecordCodec, batches: MessageInput[][]): Promise<{ writer: LandingWriter; path: string; records: StoredRecord[] }> {
  const path = join(tmp.dir, `${name}.jsonl`);
  const log = await nodeDurableFs.open(path, 'wx');
  const records: StoredRecord[] = [];
  // Fresh objects: the writer makes each input its record.
  const writer = new LandingWriter(nodeDurableFs, tmp.dir, log, codec, NOW, null, (r) => records.push(structuredClone(r)));
  for (const batch of batches) await writer.add({ messages: batch.map((m) => ({ ...m })), artifacts: [] });
  await writer.finish();
  await log.close();
  return { writer, path, records };
}

function lines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, nl = bytes.indexOf(10); nl !== -1; at = nl + 1, nl = bytes.indexOf(10, at)) out.push(bytes.subarray(at, nl));
  return out;
}

describe('a landing sealed at rest, record by record into its chunk', () => {
  it('opens to the bytes of the unencrypted landing, with the check values, hashes and checkpoint the read-back expects', async () => {
    const sizes = [10, 3_000, 70_000, 1_500_000, 5, LANDING_CHUNK_BYTES + 1_000, 20, 900_000, 900_000, 900_000, 900_000, 40];
    const text = (i: number, n: number) => `${i} é€😀 "q" \\ `.padEnd(n, 'abcdefgh');
    const batches = [sizes.slice(0, 5), sizes.slice(5, 7), sizes.slice(7)].map((part, b) =>
      part.map((n, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text(b * 100 + i, n), id: `m-${b}-${i}`, createdAt: NOW }) as MessageInput),
    );
    const cipher = new AtRestCipher(tmp.dir, newDataKey());
    const codec = cipher.recordCodec(SESSION);
    const sealed = await land('sealed', codec, batches);
    const plain = await land('plain', plainRecordCodec, batches);

    const stored = await readFile(sealed.path);
    const plainBytes = await readFile(plain.path);
    const storedLines = lines(stored);
    expect(storedLines).toHaveLength(sizes.length);
    // Each stored line is an envelope that opens to the unencrypted landing's line, in place.
    const opened = storedLines.map((line) => codec.openLine(line));
    expect(Buffer.concat(opened.flatMap((line) => [line!, Buffer.from('\n')])).equals(plainBytes)).toBe(true);
    for (const line of storedLines) expect(line.subarray(0, 5).toString()).toBe('{"s":');
    expect(sealed.records).toEqual(plain.records);
    expect(storedLines.map((line) => codec.decode(line))).toEqual(plain.records);

    // What the writer kept is what is on disk.
    expect(sealed.writer.bytes).toBe(stored.length);
    for (const [i, line] of storedLines.entries()) expect(sealed.writer.checkAt(i)).toBe(crc32(line));
    expect(sealed.writer.storedSha256()).toBe(createHash('sha256').update(stored).digest('hex'));
    expect(sealed.writer.sealedPlain()).toEqual({ bytes: plainBytes.length, sha256: createHash('sha256').update(plainBytes).digest('hex') });
    const checkpoint = sealed.writer.checkpoint()!;
    expect(checkpoint.offset).toBe(stored.length);
    expect(checkpoint.lastLineStart).toBe(stored.length - storedLines.at(-1)!.length - 1);
    await expect(readBackLanding(nodeDurableFs, sealed.path, SESSION, sealed.writer)).resolves.toMatchObject({ bytes: plainBytes.length, stored: { bytes: stored.length } });
  });
});
