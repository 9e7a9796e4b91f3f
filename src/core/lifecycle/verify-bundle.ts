import { Manifest, describeZodError } from '../../shared/manifest.js';
import type { DeviceIdentity } from '../crypto/identity.js';
import type { PairedDevice } from '../crypto/peers.js';
import { checkBundle, type SessionBundle } from '../relay/session-bundle.js';
import { CHECKSUMS_ENTRY, checkSignature, parseChecksumList, sha256Of, SIGNATURE_ENTRY, type BundleSignature } from './bundle-checksums.js';
import { decryptWithPassphrase, openSealedBundle, wrappingOf } from './bundle-crypt.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, INFO_ENTRY, MANIFEST_ENTRY, SESSION_PREFIX, type BundleInfo } from './bundle-layout.js';
import { readTarGz, type TarEntry } from './bundle-tar.js';

/**
 * Everything an import checks, in memory, before a single byte is written: the outer encryption,
 * the tar (names, kinds, sizes, ratio), every entry against the checksum list, the signature and
 * who made it, then the bundle's own documents. The result names the exact failing entry.
 */
export type Origin = 'verified' | 'unverified';

export interface VerifiedBundle {
  info: BundleInfo;
  manifest: Manifest;
  session: SessionBundle;
  origin: Origin;
  /** Who signed the checksum list (absent: unsigned). */
  signer?: Pick<BundleSignature, 'deviceId' | 'name'>;
  /** Why the origin is unverified, for the warning. */
  originNote?: string;
}

export type BundleVerdict = { ok: true; bundle: VerifiedBundle } | { ok: false; code: string; entry?: string; message: string };

export interface VerifyInput {
  /** This device's keys; undefined when it has none yet (then nothing is self-signed or sealed to it). */
  me: DeviceIdentity | undefined;
  peers: readonly PairedDevice[];
  passphrase?: string;
  /** Accept an unsigned bundle or one signed by an unknown key (with a warning). */
  trust: boolean;
}

const fail = (code: string, message: string, entry?: string): BundleVerdict => ({ ok: false, code, message, ...(entry ? { entry } : {}) });

export async function verifyBundle(bytes: Buffer, input: VerifyInput): Promise<BundleVerdict> {
  let tarGz = bytes;
  const wrapping = wrappingOf(bytes);
  if (wrapping === 'unknown') return fail('NOT_A_BUNDLE', 'The file is not a Baton bundle (no gzip, passphrase or device header).');
  if (wrapping === 'passphrase') {
    if (input.passphrase === undefined) return fail('NEEDS_PASSPHRASE', 'The bundle is encrypted with a passphrase: pass --passphrase-file FILE.');
    const opened = await decryptWithPassphrase(bytes, input.passphrase);
    if (!opened.ok) return fail(opened.code, opened.message);
    tarGz = opened.plain;
  } else if (wrapping === 'device') {
    if (!input.me) return fail('NOT_FOR_US', 'The bundle is sealed to a device, and this data directory has no device keys (baton device list creates them).');
    const opened = openSealedBundle(bytes, input.me, input.peers);
    if (!opened.ok) return fail(opened.code, `The bundle is sealed to a device: ${opened.message}`);
    tarGz = opened.plain;
  }
  const read = await readTarGz(tarGz);
  if (!read.ok) return fail(read.code, read.message, read.entry);
  const byName = new Map(read.entries.map((e) => [e.name, e.data] as const));

  const listBytes = byName.get(CHECKSUMS_ENTRY);
  if (!listBytes) return fail('MISSING_CHECKSUMS', `The bundle has no ${CHECKSUMS_ENTRY}: nothing proves its entries are intact.`, CHECKSUMS_ENTRY);
  const list = parseChecksumList(listBytes);
  if (!list.ok) return fail('BAD_CHECKSUMS', list.message, CHECKSUMS_ENTRY);
  for (const e of read.entries) {
    if (e.name === CHECKSUMS_ENTRY || e.name === SIGNATURE_ENTRY) continue;
    const want = list.hashes.get(e.name);
    if (!want) return fail('UNLISTED_ENTRY', `Entry ${e.name} is not in ${CHECKSUMS_ENTRY}: it was added after export.`, e.name);
    if (sha256Of(e.data) !== want) return fail('CHECKSUM_MISMATCH', `Entry ${e.name} does not match its sha256 in ${CHECKSUMS_ENTRY}: the bundle is corrupted or was changed.`, e.name);
  }
  for (const name of list.hashes.keys()) if (!byName.has(name)) return fail('MISSING_ENTRY', `${CHECKSUMS_ENTRY} lists ${name}, which is not in the bundle (truncated?).`, name);

  const origin = checkOrigin(listBytes, byName.get(SIGNATURE_ENTRY), input);
  if (!origin.ok) return origin.verdict;
  return readDocuments(read.entries, byName, origin.value);
}

type OriginFacts = Pick<VerifiedBundle, 'origin' | 'signer' | 'originNote'>;

function checkOrigin(list: Buffer, sigEntry: Buffer | undefined, input: VerifyInput): { ok: true; value: OriginFacts } | { ok: false; verdict: BundleVerdict } {
  let facts: OriginFacts;
  if (!sigEntry) facts = { origin: 'unverified', originNote: 'the bundle is unsigned' };
  else {
    const sig = checkSignature(list, sigEntry);
    // A signature that does not verify is tampering, not an unknown origin: --trust does not override it.
    if (!sig.ok) return { ok: false, verdict: fail('BAD_SIGNATURE', sig.message, SIGNATURE_ENTRY) };
    const signer = { deviceId: sig.signer.deviceId, name: sig.signer.name };
    const known = sig.signer.deviceId === input.me?.deviceId ? input.me : input.peers.find((p) => p.deviceId === sig.signer.deviceId);
    // A verified signer is shown by the name this device paired it under, not the name the bundle claims.
    if (known && known.signingKey === sig.signer.signingKey) facts = { origin: 'verified', signer: { deviceId: known.deviceId, name: known.name } };
    else if (known) facts = { origin: 'unverified', signer, originNote: `it is signed with a key that is not the one paired for ${known.name}` };
    else facts = { origin: 'unverified', signer, originNote: `it is signed by ${JSON.stringify(sig.signer.name.slice(0, 64))} (${sig.signer.deviceId.slice(0, 40)}), which is not a paired device` };
  }
  if (facts.origin === 'unverified' && !input.trust) {
    return { ok: false, verdict: fail('UNVERIFIED_ORIGIN', `Unverified origin: ${facts.originNote}. Pair the device (baton device pair) or import with --trust.`, SIGNATURE_ENTRY) };
  }
  return { ok: true, value: facts };
}

function readDocuments(entries: readonly TarEntry[], byName: Map<string, Buffer>, origin: OriginFacts): BundleVerdict {
  const json = (name: string): { ok: true; value: unknown } | { ok: false; verdict: BundleVerdict } => {
    const data = byName.get(name);
    if (!data) return { ok: false, verdict: fail('MISSING_ENTRY', `The bundle has no ${name}.`, name) };
    try {
      return { ok: true, value: JSON.parse(data.toString('utf8')) };
    } catch {
      return { ok: false, verdict: fail('BAD_ENTRY', `Entry ${name} is not JSON.`, name) };
    }
  };
  const infoRaw = json(INFO_ENTRY);
  if (!infoRaw.ok) return infoRaw.verdict;
  const info = infoRaw.value as Partial<BundleInfo>;
  if (info?.format !== BUNDLE_FORMAT || info.v !== BUNDLE_FORMAT_VERSION || typeof info.sessionId !== 'string') return fail('NOT_A_BUNDLE', `${INFO_ENTRY} is not a version-${BUNDLE_FORMAT_VERSION} ${BUNDLE_FORMAT}.`, INFO_ENTRY);
  const manifestRaw = json(MANIFEST_ENTRY);
  if (!manifestRaw.ok) return manifestRaw.verdict;
  const manifest = Manifest.safeParse(manifestRaw.value);
  if (!manifest.success) return fail('BAD_ENTRY', `Entry ${MANIFEST_ENTRY} is not a valid manifest: ${describeZodError(manifest.error)}`, MANIFEST_ENTRY);
  if (manifest.data.session_id !== info.sessionId) return fail('BAD_ENTRY', `${MANIFEST_ENTRY} is for session ${manifest.data.session_id}, ${INFO_ENTRY} for ${info.sessionId}.`, MANIFEST_ENTRY);
  const files = [];
  for (const e of entries) {
    if (e.name === INFO_ENTRY || e.name === MANIFEST_ENTRY || e.name === CHECKSUMS_ENTRY || e.name === SIGNATURE_ENTRY) continue;
    if (!e.name.startsWith(SESSION_PREFIX)) return fail('UNEXPECTED_ENTRY', `Entry ${e.name} is not part of a session bundle.`, e.name);
    files.push({ path: e.name.slice(SESSION_PREFIX.length), data: e.data });
  }
  const session = checkBundle({ v: 1, sessionId: info.sessionId, files });
  if (!session.ok) return fail('BAD_ENTRY', `The session in the bundle is refused: ${session.message}.`);
  const doc = json(`${SESSION_PREFIX}session.json`);
  if (!doc.ok) return doc.verdict;
  if ((doc.value as { id?: unknown })?.id !== info.sessionId) return fail('BAD_ENTRY', `${SESSION_PREFIX}session.json is not session ${info.sessionId}.`, `${SESSION_PREFIX}session.json`);
  return { ok: true, bundle: { info: info as BundleInfo, manifest: manifest.data, session: session.bundle, ...origin } };
}
