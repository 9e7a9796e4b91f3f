import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './index.js';
import { CHECKPOINT_FILE, CHECKPOINT_INTERVAL_BYTES } from './checkpoint.js';
import { LANDING_CHUNK_BYTES } from './session-store.js';
import { encodeNewRecord } from './record-codec.js';
import { makeTempDir } from './test-support/temp-dir.js';
import type { NewSession } from './types.js';

const base: NewSession = { cwd: '/w/p', gitRoot: '/w/p', branch: 'main', title: 't', source: { tool: 'claude' }, holder: 'terminal' };
let tmp: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => (tmp = await makeTempDir()));
afterEach(() => tmp.cleanup());

describe('landing a session (one pass that writes, then one streaming read-back)', () => {
  it('returns the records as written, the log bytes as hashed on read-back, over several write chunks', async () => {
    const store = await openStore(join(tmp.dir, 'store'));
    // About 1.5 write chunks of 1 KB messages, so the landing writes more than once.
    const count = Math.ceil((LANDING_CHUNK_BYTES * 1.5) / 1024);
    const messages = Array.from({ length: count }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `${i} ${'é'.repeat(500)}` }));
    const landed = await store.landSession(base, messages);
    const path = join(store.sessionDir(landed.session.id), 'messages.jsonl');
    const bytes = await readFile(path);
    expect(bytes.length).toBeGreaterThan(LANDING_CHUNK_BYTES);
    expect(landed.log).toEqual({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect(landed.records).toHaveLength(count);
    expect(await store.readMessages(landed.session.id)).toEqual(landed.records);
    expect(landed.session.messageCount).toBe(count);
    await store.close();
  });

  it('writes each record as encodeNewRecord seals it, lines sealed in the chunk, across its ends, and lines too long for it', async () => {
    const store = await openStore(join(tmp.dir, 'store'));
    // Lines of every size the writer places differently: small ones (sealed in the chunk, some across
    // its end), one that may not fit in an empty chunk at 3 bytes a character (sealed on its own and
    // copied), one longer than a chunk (written on its own), in ASCII, 2-, 3- and 4-byte UTF-8.
    const sizes = [...Array.from({ length: 9_000 }, (_, i) => 200 + ((i * 7919) % 1500)), Math.ceil(LANDING_CHUNK_BYTES / 3) + 10, 40, LANDING_CHUNK_BYTES + 5, 3, 700];
    const texts = ['a', 'é', '€', '😀'];
    const messages = sizes.map((size, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `${i} ${texts[i % texts.length]!.repeat(Math.ceil(size / texts[i % texts.length]!.length))}` }));
    const landed = await store.landSession(base, messages);
    const bytes = await readFile(join(store.sessionDir(landed.session.id), 'messages.jsonl'));
    const expected = Buffer.concat(
      landed.records.map((record) => {
        const { crc, ...unsealed } = record;
        const sealed = encodeNewRecord(unsealed);
        expect(sealed.record.crc).toBe(crc);
        return sealed.line;
      }),
    );
    expect(bytes.equals(expected)).toBe(true);
    expect(await store.readMessages(landed.session.id)).toEqual(landed.records);
    await store.close();
  });

  it('leaves a checkpoint at the end of the log: the first writer to open it scans nothing', async () => {
    const root = join(tmp.dir, 'store');
    const first = await openStore(root);
    const landed = await first.landSession(base, Array.from({ length: 2_000 }, (_, i) => ({ role: 'user', content: `m ${i}` })));
    await first.close();
    const dir = first.sessionDir(landed.session.id);
    expect((await stat(join(dir, CHECKPOINT_FILE))).size).toBeGreaterThan(0);
    const store = await openStore(root);
    const report = await store.recover(landed.session.id);
    expect(report).toMatchObject({ scannedFrom: landed.log.bytes, scannedBytes: 0, count: 2_000, lastSeq: 1_999, quarantined: [] });
    // Appends continue the sequence, and a retried id from the landing's last records is recognised.
    const [next] = await store.append(landed.session.id, 1, [{ role: 'user', content: 'after' }]);
    expect(next!.seq).toBe(2_000);
    const [again] = await store.append(landed.session.id, 1, [{ id: landed.records[1_999]!.id, role: 'user', content: 'm 1999' }]);
    expect(again).toEqual(landed.records[1_999]);
    expect(await store.readMessages(landed.session.id, { tail: 2 })).toEqual([landed.records[1_999], next]);
    await store.close();
  });

  it('an empty session, or one under the checkpoint interval, lands with no checkpoint (recovery scans it all)', async () => {
    const store = await openStore(join(tmp.dir, 'store'));
    const empty = await store.landSession(base, []);
    expect(empty.records).toEqual([]);
    expect(empty.log.bytes).toBe(0);
    await expect(stat(join(store.sessionDir(empty.session.id), CHECKPOINT_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    const small = await store.landSession(base, [{ role: 'user', content: 'x'.repeat(CHECKPOINT_INTERVAL_BYTES - 500) }]);
    expect(small.log.bytes).toBeLessThan(CHECKPOINT_INTERVAL_BYTES);
    await expect(stat(join(store.sessionDir(small.session.id), CHECKPOINT_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    await store.close();
  });
});
