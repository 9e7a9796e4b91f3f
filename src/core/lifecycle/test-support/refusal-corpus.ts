import { gunzipSync, gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import type { DeviceIdentity } from '../../crypto/identity.js';
import { generateIdentity } from './identities.js';
import { checksumList, CHECKSUMS_ENTRY, signChecksums, SIGNATURE_ENTRY } from '../bundle-checksums.js';
import { BUNDLE_ENTRY_MAX_BYTES, BUNDLE_MAX_RATIO, BUNDLE_RATIO_FLOOR_BYTES, type TarEntry } from '../bundle-tar.js';

/**
 * Generated hostile bundles, each one change away from a good bundle exported for real. The
 * re-signed cases are signed with the paired exporter's own key, so only the check under test can
 * catch them (a stolen key is the strongest attacker the format can face).
 */
export interface RefusalCase {
  name: string;
  bytes: Buffer;
  /** Refusal codes the case may end in (a flipped byte can break a name, a hash or the JSON). */
  codes: string[];
  /** The exact failing entry, when the refusal must name it. */
  entry?: string;
}

interface RawEntry {
  header: tarStream.Headers;
  data?: Buffer;
}

export async function packRaw(entries: readonly RawEntry[], gzip = true): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: Buffer) => chunks.push(c));
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const e of entries) pack.entry({ mode: 0o600, mtime: new Date(0), type: 'file', ...e.header, size: e.header.size ?? e.data?.length ?? 0 }, e.data ?? Buffer.alloc(0));
  pack.finalize();
  await done;
  return gzip ? gzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
}

const files = (entries: readonly TarEntry[]): RawEntry[] => entries.map((e) => ({ header: { name: e.name, type: 'file' }, data: e.data }));
const content = (entries: readonly TarEntry[]): TarEntry[] => entries.filter((e) => e.name !== CHECKSUMS_ENTRY && e.name !== SIGNATURE_ENTRY);

/** Checksums and signature made again over `entries` by `signer`. */
export function resign(entries: readonly TarEntry[], signer: DeviceIdentity): TarEntry[] {
  const body = content(entries);
  const list = checksumList(body);
  return [...body, { name: CHECKSUMS_ENTRY, data: list }, { name: SIGNATURE_ENTRY, data: signChecksums(list, signer) }];
}

function flip(data: Buffer, at: number): Buffer {
  const copy = Buffer.from(data);
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

/** Spread positions over an entry: the first and last bytes and evenly in between. */
function positions(length: number, count: number): number[] {
  if (length === 0) return [];
  const out = new Set<number>([0, length - 1]);
  for (let i = 1; out.size < Math.min(count, length); i++) out.add(Math.floor((i * length) / (count + 1)) % length);
  return [...out].sort((a, b) => a - b);
}

const HOSTILE_NAMES = ['../../x', '../x', '/etc/passwd', '/tmp/baton-x', 'session/../../x', 'session/artifacts/../../../x', 'session/./session.json', './bundle.json', 'session//x', 'a\\b', 'session/artifacts/..', '..', '.', 'x/../../y', 'session/artifacts/a/b/c/d', 'C:/x', ' session/x', 'session/x\u0000y', 'sess\u202eion/x', `${'a'.repeat(200)}`];

export async function refusalCorpus(good: { bytes: Buffer; entries: TarEntry[] }, exporter: DeviceIdentity): Promise<RefusalCase[]> {
  const cases: RefusalCase[] = [];
  const { entries } = good;
  const stranger = generateIdentity('stranger');

  // 1. A flipped byte in each kind of entry, at spread positions (the list and signature included).
  for (const target of entries) {
    for (const at of positions(target.data.length, target.name.startsWith('session/messages') ? 40 : 16)) {
      const changed = entries.map((e) => (e === target ? { name: e.name, data: flip(e.data, at) } : e));
      const isList = target.name === CHECKSUMS_ENTRY;
      const isSig = target.name === SIGNATURE_ENTRY;
      cases.push({
        name: `flipped byte ${at} of ${target.name}`,
        bytes: await packRaw(files(changed)),
        codes: isSig ? ['BAD_SIGNATURE'] : isList ? ['BAD_CHECKSUMS', 'CHECKSUM_MISMATCH', 'UNLISTED_ENTRY', 'MISSING_ENTRY', 'BAD_SIGNATURE'] : ['CHECKSUM_MISMATCH'],
        ...(isSig || isList ? {} : { entry: target.name }),
      });
    }
  }
  // 2. Flipped bytes in the compressed stream itself (past gzip's 10-byte header, whose mtime/OS bytes carry no data).
  // A flip can leave the content as it was (a code length of a Huffman symbol the stream never uses):
  // that is no change to refuse, so such a flip is left out rather than expected to fail.
  const tar = gunzipSync(good.bytes);
  for (const at of positions(good.bytes.length - 10, 40)) {
    if (sameContent(flip(good.bytes, at + 10), tar)) continue;
    cases.push({ name: `flipped byte ${at + 10} of the gzip stream`, bytes: flip(good.bytes, at + 10), codes: ['NOT_A_BUNDLE', 'TRUNCATED', 'CHECKSUM_MISMATCH', 'BAD_SIGNATURE', 'BAD_CHECKSUMS', 'BAD_ENTRY', 'MISSING_ENTRY', 'UNLISTED_ENTRY', 'DUPLICATE_ENTRY', 'OVERSIZED_ENTRY'] });
  }
  // 3. Truncated at spread lengths.
  for (const at of positions(good.bytes.length - 1, 40)) cases.push({ name: `truncated to ${at} bytes`, bytes: good.bytes.subarray(0, at), codes: ['TRUNCATED', 'NOT_A_BUNDLE', 'MISSING_ENTRY', 'MISSING_CHECKSUMS'] });
  // 4. Path traversal, absolute and odd names, listed and signed with the exporter's key.
  // (tar cuts a name at NUL: that one arrives as another, unlisted, name.)
  for (const name of HOSTILE_NAMES) {
    cases.push({ name: `entry named ${JSON.stringify(name)}`, bytes: await packRaw(files(resign([...entries, { name, data: Buffer.from('x') }], exporter))), codes: ['BAD_ENTRY', 'BAD_CHECKSUMS', ...(name.includes('\u0000') ? ['UNLISTED_ENTRY'] : [])] });
  }
  // 5. Links and special entries.
  for (const [type, linkname] of [['symlink', '/etc/passwd'], ['symlink', '../../x'], ['link', 'session/session.json'], ['link', '/etc/shadow'], ['directory', undefined], ['fifo', undefined], ['character-device', undefined], ['block-device', undefined]] as const) {
    const raw = [...files(entries.slice(0, 2)), { header: { name: 'session/artifacts/evil', type, ...(linkname ? { linkname } : {}) } }, ...files(entries.slice(2))];
    cases.push({ name: `a ${type} entry${linkname ? ` to ${linkname}` : ''}`, bytes: await packRaw(raw), codes: ['BAD_ENTRY'], entry: 'session/artifacts/evil' });
  }
  // 6. Zip bombs: far past the ratio cap, and just past it.
  for (const mb of [BUNDLE_RATIO_FLOOR_BYTES / 1024 / 1024 + 1, 64]) {
    const bomb = await packRaw([...files(entries), { header: { name: 'session/artifacts/zeros' }, data: Buffer.alloc(mb * 1024 * 1024) }]);
    cases.push({ name: `zip bomb: ${mb} MB of zeros in ${bomb.length} bytes (> ${BUNDLE_MAX_RATIO}:1)`, bytes: bomb, codes: ['ZIP_BOMB'] });
  }
  // 7. An entry whose header claims more than the entry limit (refused at the header, before its bytes).
  cases.push({ name: 'oversized entry', bytes: await oversizedEntry(entries), codes: ['OVERSIZED_ENTRY'], entry: 'session/artifacts/huge' });
  // 8. Structure: duplicates, missing list, missing listed entry, unlisted extra, unsigned, foreign signer, stranger re-signing.
  cases.push({ name: 'duplicate entry name', bytes: await packRaw(files([...entries.slice(0, 3), entries[2]!, ...entries.slice(3)])), codes: ['DUPLICATE_ENTRY'], entry: entries[2]!.name });
  cases.push({ name: 'missing checksum list', bytes: await packRaw(files(entries.filter((e) => e.name !== CHECKSUMS_ENTRY))), codes: ['MISSING_CHECKSUMS'], entry: CHECKSUMS_ENTRY });
  for (const drop of content(entries)) {
    cases.push({ name: `listed entry ${drop.name} missing`, bytes: await packRaw(files(entries.filter((e) => e !== drop))), codes: ['MISSING_ENTRY'], entry: drop.name });
  }
  cases.push({ name: 'extra unlisted entry', bytes: await packRaw(files([...entries, { name: 'session/artifacts/extra.txt', data: Buffer.from('added later') }])), codes: ['UNLISTED_ENTRY'], entry: 'session/artifacts/extra.txt' });
  cases.push({ name: 'unsigned (signature removed)', bytes: await packRaw(files(entries.filter((e) => e.name !== SIGNATURE_ENTRY))), codes: ['UNVERIFIED_ORIGIN'] });
  for (const target of content(entries)) {
    const changed = entries.map((e) => (e === target ? { name: e.name, data: Buffer.concat([e.data, Buffer.from(' ')]) } : e));
    cases.push({ name: `${target.name} changed and re-signed by an unpaired key`, bytes: await packRaw(files(resign(changed, stranger))), codes: ['UNVERIFIED_ORIGIN'], entry: SIGNATURE_ENTRY });
  }
  cases.push({ name: 'unlisted session file re-signed (handoff.json)', bytes: await packRaw(files(resign([...entries, { name: 'session/handoff.json', data: Buffer.from('{}') }], exporter))), codes: ['BAD_ENTRY'] });
  cases.push({ name: 'entry outside session/ re-signed', bytes: await packRaw(files(resign([...entries, { name: 'receipts/x.json', data: Buffer.from('{}') }], exporter))), codes: ['UNEXPECTED_ENTRY'], entry: 'receipts/x.json' });
  for (const junk of [Buffer.alloc(0), Buffer.from('hello'), Buffer.from([0x1f, 0x8b]), Buffer.from('BATONPW1'), Buffer.from('BSL1'), gzipSync(Buffer.alloc(0)), gzipSync(Buffer.from('not a tar at all'))]) {
    cases.push({ name: `junk file ${JSON.stringify(junk.toString('latin1').slice(0, 12))} (${junk.length} bytes)`, bytes: junk, codes: ['NOT_A_BUNDLE', 'TRUNCATED', 'MALFORMED', 'NEEDS_PASSPHRASE'] });
  }
  return cases;
}

/**
 * A tar whose entry header claims BUNDLE_ENTRY_MAX_BYTES + 1 bytes (size field rewritten, header
 * checksum recomputed) followed by a few bytes only: the reader must refuse at the header.
 */
async function oversizedEntry(entries: readonly TarEntry[]): Promise<Buffer> {
  const tar = await packRaw([...files(entries.slice(0, 2)), { header: { name: 'session/artifacts/huge' }, data: Buffer.alloc(1024) }], false);
  let at = 0;
  while (tar.subarray(at, at + 22).toString('latin1') !== 'session/artifacts/huge') at += 512;
  tar.write(`${(BUNDLE_ENTRY_MAX_BYTES + 1).toString(8).padStart(11, '0')}\0`, at + 124, 'latin1');
  tar.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = at; i < at + 512; i++) sum += tar[i]!;
  tar.write(`${sum.toString(8).padStart(6, '0')}\0 `, at + 148, 'latin1');
  return gzipSync(tar.subarray(0, at + 512 + 1024));
}

function sameContent(gz: Buffer, tar: Buffer): boolean {
  try {
    return gunzipSync(gz).equals(tar);
  } catch {
    return false;
  }
}
