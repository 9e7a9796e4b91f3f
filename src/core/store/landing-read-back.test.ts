import { mkdir, open as openFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeDurableFs, type DurableFile } from '../fs/durable-fs.js';
import { delegatingFs } from '../fs/delegating-fs.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { enablePassphraseEncryption } from './at-rest/convert.js';
import { dropPassphraseKey, holdPassphraseKey, unlockWithPassphrase } from './at-rest/passphrase.js';
import { passphraseSettings } from './at-rest/host-unlock.js';
import { StoreError } from './errors.js';
import { openStore } from './index.js';
import { MESSAGES_FILE } from './message-log.js';
import { makeTempDir } from './test-support/temp-dir.js';

/**
 * The landing's read-back (landing-read-back.ts) proves the log on disk is the log written, plain
 * and sealed at rest (where it no longer deciphers the records): bytes changed on disk after the
 * writer synced the log and before the read-back — a real write to the file, made when the
 * landing closes its log — are caught, over hundreds of generated positions and kinds of damage.
 */
const TRIALS = 240;
const PASSPHRASE = 'read-back passphrase';

/** How the bytes of the log are changed between the write and the read-back. */
type Damage = (bytes: Buffer, random: () => number) => { bytes: Buffer; what: string };

const at = (bytes: Buffer, random: () => number) => Math.floor(random() * bytes.length);
const DAMAGES: Damage[] = [
  (b, r) => {
    const i = at(b, r);
    const bit = 1 << Math.floor(r() * 8);
    b[i] = b[i]! ^ bit;
    return { bytes: b, what: `bit ${bit} of byte ${i} flipped` };
  },
  (b, r) => {
    const i = at(b, r);
    b[i] = (b[i]! + 1 + Math.floor(r() * 255)) & 0xff;
    return { bytes: b, what: `byte ${i} replaced` };
  },
  (b, r) => {
    // A newline where there was none (a line cut in two), or none where there was one (two merged).
    const i = at(b, r);
    b[i] = b[i] === 0x0a ? 0x20 : 0x0a;
    return { bytes: b, what: `newline toggled at ${i}` };
  },
  (b, r) => {
    const keep = at(b, r);
    return { bytes: b.subarray(0, keep), what: `torn to ${keep} bytes` };
  },
  (b, r) => {
    const i = at(b, r);
    b.fill(0, i, Math.min(b.length, i + 1 + Math.floor(r() * 64)));
    return { bytes: b, what: `zeroed from ${i}` };
  },
];

/**
 * XORs the CRC-32 generator (reflected, as zlib computes it: 33 bits) into a line at a bit offset:
 * the line's CRC-32 does not change, so only the file's hash can tell. Checked here, not assumed.
 */
function crcPreservingChange(b: Buffer, random: () => number): { bytes: Buffer; what: string } | undefined {
  const lines = b.toString('latin1').split('\n');
  const index = Math.floor(random() * (lines.length - 1));
  const start = lines.slice(0, index).reduce((n, l) => n + l.length + 1, 0);
  const line = b.subarray(start, start + lines[index]!.length);
  // Inside the line's body, away from its own checksum suffix (the last 20 bytes) and its first bytes.
  const byte = 8 + Math.floor(random() * Math.max(1, line.length - 40));
  const before = crc32(line);
  // The generator in zlib's bit order (least significant bit first): the x^32 term, then the
  // reflected 0xEDB88320 — 0x1DB710641, little-endian.
  const poly = [0x41, 0x06, 0x71, 0xdb, 0x01];
  const shift = Math.floor(random() * 8);
  let carry = 0;
  for (let k = 0; k < poly.length + 1; k++) {
    const v = ((poly[k] ?? 0) << shift) | carry;
    line[byte + k]! ^= v & 0xff;
    carry = v >> 8;
  }
  // Only a change that kept the CRC and no newline in the line is what this case is about.
  if (crc32(line) !== before || line.includes(0x0a)) return undefined;
  return { bytes: b, what: `CRC-preserving change in line ${index + 1} at byte ${byte}` };
}

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

/** A store whose landings' logs go through `damage` when the landing closes them (after their sync). */
async function storeWith(root: string, damage: { next: ((bytes: Buffer) => Buffer) | null }) {
  const fs = delegatingFs(nodeDurableFs, {
    open: async (path, flags, mode) => {
      const file = await nodeDurableFs.open(path, flags, mode);
      if (flags !== 'wx' || basename(path) !== MESSAGES_FILE) return file;
      return {
        ...bind(file),
        close: async () => {
          await file.close();
          const change = damage.next;
          if (!change) return;
          // A real write to the file, as another process or the disk would make it.
          const handle = await openFile(path, 'r+');
          try {
            const bytes = await handle.readFile();
            const changed = change(Buffer.from(bytes));
            await handle.truncate(0);
            await handle.write(changed, 0, changed.length, 0);
          } finally {
            await handle.close();
          }
        },
      };
    },
  });
  return openStore(root, { fs });
}

function bind(file: DurableFile): DurableFile {
  return {
    path: file.path,
    write: (data, position) => file.write(data, position),
    read: (length, position) => file.read(length, position),
    sync: () => file.sync(),
    truncate: (length) => file.truncate(length),
    stat: () => file.stat(),
    close: () => file.close(),
  };
}

const messages = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'assistant' | 'user', content: `message ${seed}.${i} ${'x'.repeat((seed * 7 + i * 13) % 90)}` }));

async function trials(sealed: boolean): Promise<void> {
  const root = join(tmp.dir, sealed ? 'sealed' : 'plain');
  if (sealed) {
    await mkdir(root, { recursive: true, mode: 0o700 });
    await enablePassphraseEncryption(root, Buffer.from(PASSPHRASE));
    const settings = (await passphraseSettings(root))!;
    holdPassphraseKey(root, await unlockWithPassphrase(root, settings.kdf, settings.key.keyId, Buffer.from(PASSPHRASE)));
  }
  const damage: { next: ((bytes: Buffer) => Buffer) | null } = { next: null };
  const store = await storeWith(root, damage);
  try {
    expect(store.atRest.state).toBe(sealed ? 'on' : 'off');
    const random = seededRandom(sealed ? 2026_12_01 : 2026_11_30);
    // The hook itself changes nothing: an undamaged landing reads back.
    const clean = await store.landSession({ cwd: tmp.dir, gitRoot: null, branch: null, title: 'clean', source: { tool: 'baton' }, holder: 'terminal' }, messages(30, 0));
    expect(clean.session.messageCount).toBe(30);
    if (sealed) expect(clean.log.stored).toBeDefined();
    let caught = 0;
    const kinds = new Set<string>();
    for (let t = 0; t < TRIALS; t++) {
      const kind = t % (DAMAGES.length + 1);
      let what = '';
      damage.next = (bytes) => {
        let result = kind < DAMAGES.length ? DAMAGES[kind]!(bytes, random) : crcPreservingChange(bytes, random);
        // A generated CRC-preserving change that did not hold (it made a newline): flip a bit instead.
        result ??= DAMAGES[0]!(bytes, random);
        what = result.what;
        kinds.add(what.replace(/[0-9]+/g, 'N'));
        return result.bytes;
      };
      const landing = store.landSession({ cwd: tmp.dir, gitRoot: null, branch: null, title: `t${t}`, source: { tool: 'baton' }, holder: 'terminal' }, messages(20 + (t % 30), t + 1));
      const error = await landing.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `trial ${t}: ${what} was not caught`).toBeInstanceOf(StoreError);
      expect((error as StoreError).code, what).toBe('IO_ERROR');
      expect((error as Error).message, what).toMatch(/the log read back differs from what was written \((line \d+ does not hold|\d+ lines instead of|\d+ bytes instead of|its bytes hash differently)/);
      caught++;
    }
    expect(caught).toBe(TRIALS);
    // Every kind of damage ran, the CRC-preserving one included (caught by the file's hash only).
    expect([...kinds].some((k) => k.startsWith('CRC-preserving'))).toBe(true);
    expect(kinds.size).toBeGreaterThanOrEqual(DAMAGES.length + 1);
  } finally {
    await store.close();
    if (sealed) dropPassphraseKey(root);
  }
}

describe('the landing read-back catches bytes changed on disk after the write', () => {
  it(`plain log: ${TRIALS} generated changes (bit flips, replaced bytes, newlines, tears, zeroed runs, CRC-preserving changes)`, () => trials(false), 120_000);
  it(`sealed at rest (no record deciphered): ${TRIALS} generated changes of the same kinds`, () => trials(true), 120_000);
});
