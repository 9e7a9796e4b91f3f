import { createHash, sign, verify } from 'node:crypto';
import { publicKeyFromRaw, type DeviceIdentity } from '../crypto/identity.js';

/**
 * The bundle's integrity: a sha256 list of every other entry (sha256sum's format, so a person can
 * check it by hand) and an Ed25519 signature over that list by the exporting device. Checksums
 * catch corruption; only the signature (from a paired device) catches tampering.
 */
export const CHECKSUMS_ENTRY = 'checksums.sha256';
export const SIGNATURE_ENTRY = 'checksums.sig';
const SIGNED_PREFIX = 'baton-bundle-checksums-v1\n';
const LINE = /^([0-9a-f]{64}) {2}(\S+)$/;
const MAX_LIST_BYTES = 16 * 1024 * 1024;

export interface BundleSignature {
  v: 1;
  deviceId: string;
  name: string;
  /** Raw Ed25519 public key, base64url: checked against the paired devices on import. */
  signingKey: string;
  sig: string;
}

export function sha256Of(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function checksumList(entries: readonly { name: string; data: Buffer }[]): Buffer {
  return Buffer.from(entries.map((e) => `${sha256Of(e.data)}  ${e.name}\n`).join(''), 'utf8');
}

export type ParsedList = { ok: true; hashes: Map<string, string> } | { ok: false; message: string };

export function parseChecksumList(bytes: Buffer): ParsedList {
  if (bytes.length > MAX_LIST_BYTES) return { ok: false, message: `${CHECKSUMS_ENTRY} is larger than ${MAX_LIST_BYTES} bytes.` };
  const text = bytes.toString('utf8');
  if (!text.endsWith('\n')) return { ok: false, message: `${CHECKSUMS_ENTRY} does not end with a newline (cut short?).` };
  const hashes = new Map<string, string>();
  const lines = text.slice(0, -1).split('\n');
  for (const [i, line] of lines.entries()) {
    const m = LINE.exec(line);
    if (!m) return { ok: false, message: `${CHECKSUMS_ENTRY} line ${i + 1} is not "<sha256>  <entry>".` };
    if (hashes.has(m[2]!)) return { ok: false, message: `${CHECKSUMS_ENTRY} lists ${m[2]} twice.` };
    hashes.set(m[2]!, m[1]!);
  }
  return { ok: true, hashes };
}

/** The signed bytes cover who signs (id, name, key) as well as the list, so no byte of the signature entry can change unnoticed. */
function signedBytes(signer: Pick<BundleSignature, 'deviceId' | 'name' | 'signingKey'>, list: Buffer): Buffer {
  return Buffer.concat([Buffer.from(SIGNED_PREFIX), Buffer.from(`${JSON.stringify([signer.deviceId, signer.name, signer.signingKey])}\n`), list]);
}

function serialize(doc: BundleSignature): Buffer {
  return Buffer.from(`${JSON.stringify({ v: doc.v, deviceId: doc.deviceId, name: doc.name, signingKey: doc.signingKey, sig: doc.sig })}\n`, 'utf8');
}

export function signChecksums(list: Buffer, identity: DeviceIdentity): Buffer {
  const sig = sign(null, signedBytes(identity, list), identity.signingPrivate).toString('base64url');
  const doc: BundleSignature = { v: 1, deviceId: identity.deviceId, name: identity.name, signingKey: identity.signingKey, sig };
  return serialize(doc);
}

export type SignatureCheck = { ok: true; signer: BundleSignature } | { ok: false; message: string };

/** Checks that the signature is well formed and made by the key it names; who that key belongs to is the caller's question. */
export function checkSignature(list: Buffer, sigEntry: Buffer): SignatureCheck {
  let doc: Partial<BundleSignature>;
  try {
    doc = JSON.parse(sigEntry.toString('utf8')) as Partial<BundleSignature>;
  } catch {
    return { ok: false, message: `${SIGNATURE_ENTRY} is not JSON.` };
  }
  if (doc?.v !== 1 || typeof doc.deviceId !== 'string' || typeof doc.name !== 'string' || typeof doc.signingKey !== 'string' || typeof doc.sig !== 'string') {
    return { ok: false, message: `${SIGNATURE_ENTRY} is not a version-1 bundle signature.` };
  }
  const canonical = (b64: string) => Buffer.from(b64, 'base64url').toString('base64url') === b64;
  if (!canonical(doc.sig) || !canonical(doc.signingKey)) return { ok: false, message: `${SIGNATURE_ENTRY} holds a key or signature that is not canonical base64url.` };
  // One spelling per signature: extra keys, spaces or another key order are refused, not ignored.
  if (!serialize(doc as BundleSignature).equals(sigEntry)) return { ok: false, message: `${SIGNATURE_ENTRY} is not in its canonical form.` };
  let good = false;
  try {
    good = verify(null, signedBytes(doc as BundleSignature, list), publicKeyFromRaw(doc.signingKey, 'Ed25519'), Buffer.from(doc.sig, 'base64url'));
  } catch {
    good = false;
  }
  if (!good) return { ok: false, message: `The signature in ${SIGNATURE_ENTRY} (device ${doc.deviceId.slice(0, 40)}) does not match ${CHECKSUMS_ENTRY}: the bundle was changed after it was signed.` };
  return { ok: true, signer: doc as BundleSignature };
}
