import { createCipheriv, createDecipheriv, createHash, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, sign, verify } from 'node:crypto';
import { publicKeyFromRaw, rawPublicKey, type DeviceIdentity } from './identity.js';

/**
 * Sealing for one recipient device (issue 13): an ephemeral X25519 key agreed with the
 * recipient's X25519 key, HKDF-SHA256 to an AES-256-GCM key, the ciphertext bound to its purpose
 * (kind + context) as associated data, and the whole envelope signed with the sender's Ed25519 key.
 * The relay sees device ids and sizes, nothing else.
 */
export const SEAL_VERSION = 1;
const HKDF_INFO = 'baton-seal-v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SealedEnvelope {
  v: typeof SEAL_VERSION;
  /** What the plaintext is ("handoff", "blob", "receipt"…): a sealed blob cannot be replayed as something else. */
  kind: string;
  from: string;
  to: string;
  /** Ephemeral X25519 public key, base64url. */
  epk: string;
  iv: string;
  /** Ciphertext with the GCM tag appended, base64url. */
  ct: string;
  /** Ed25519 signature over the associated data, iv and ciphertext; absent = unsigned (always refused). */
  sig?: string;
}

export interface SealInput {
  sender: DeviceIdentity;
  recipient: { deviceId: string; encryptionKey: string };
  kind: string;
  /** Bound into the associated data (e.g. the handoff id); the opener must name the same. */
  context: string;
  plaintext: Uint8Array;
}

export type OpenFailure = 'MALFORMED' | 'UNSIGNED' | 'UNKNOWN_SENDER' | 'BAD_SIGNATURE' | 'NOT_FOR_US' | 'WRONG_KEY';
export type OpenResult = { ok: true; plaintext: Buffer; from: string } | { ok: false; code: OpenFailure; message: string };

function associatedData(e: Pick<SealedEnvelope, 'v' | 'kind' | 'from' | 'to' | 'epk'>, context: string): Buffer {
  return Buffer.from(`${HKDF_INFO}\n${e.v}\n${e.kind}\n${e.from}\n${e.to}\n${e.epk}\n${context}`, 'utf8');
}

function signedBytes(aad: Buffer, iv: string, ct: string): Buffer {
  return Buffer.concat([aad, Buffer.from(`\n${iv}\n${ct}`, 'utf8')]);
}

function deriveKey(shared: Buffer, epk: string, recipientKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.from(`${epk}.${recipientKey}`, 'utf8'), HKDF_INFO, 32));
}

/**
 * The encryption both envelope formats share: an ephemeral X25519 key agreed with the
 * recipient's, HKDF to an AES-256-GCM key, the header bound in as associated data.
 */
function encryptFor(input: SealInput) {
  const ephemeral = generateKeyPairSync('x25519');
  const epk = rawPublicKey(ephemeral.publicKey);
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: publicKeyFromRaw(input.recipient.encryptionKey, 'X25519') });
  const key = deriveKey(shared, epk, input.recipient.encryptionKey);
  const head = { v: SEAL_VERSION, kind: input.kind, from: input.sender.deviceId, to: input.recipient.deviceId, epk } as const;
  const aad = associatedData(head, input.context);
  const ivBytes = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, ivBytes);
  cipher.setAAD(aad);
  const ct = Buffer.concat([cipher.update(input.plaintext), cipher.final(), cipher.getAuthTag()]);
  return { head, aad, iv: ivBytes.toString('base64url'), ct };
}

export function seal(input: SealInput): SealedEnvelope {
  const { head, aad, iv, ct: bytes } = encryptFor(input);
  const ct = bytes.toString('base64url');
  const sig = sign(null, signedBytes(aad, iv, ct), input.sender.signingPrivate).toString('base64url');
  return { ...head, iv, ct, sig };
}

export interface OpenInput {
  recipient: DeviceIdentity;
  kind: string;
  context: string;
  /** The sender's Ed25519 public key (base64url) if it is a paired device, else undefined. */
  signingKeyOf: (deviceId: string) => string | undefined;
}

function isCanonicalBase64Url(value: string): boolean {
  return Buffer.from(value, 'base64url').toString('base64url') === value;
}

/** Parses bytes (JSON) into an envelope, or a MALFORMED refusal. */
export function parseEnvelope(bytes: Uint8Array | string): SealedEnvelope | OpenResult {
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  } catch {
    return { ok: false, code: 'MALFORMED', message: 'The message is not a sealed envelope (not JSON).' };
  }
  const e = value as Partial<SealedEnvelope> | null;
  const b64 = (s: unknown) => typeof s === 'string' && /^[A-Za-z0-9_-]*$/.test(s);
  if (!e || e.v !== SEAL_VERSION || typeof e.kind !== 'string' || typeof e.from !== 'string' || typeof e.to !== 'string' || !b64(e.epk) || !b64(e.iv) || !b64(e.ct) || (e.sig !== undefined && !b64(e.sig))) {
    return { ok: false, code: 'MALFORMED', message: 'The message is not a version-1 sealed envelope.' };
  }
  return e as SealedEnvelope;
}

/**
 * What both envelope formats check once the envelope is parsed and canonical: kind, recipient,
 * sender, signature (over `signed`, built from the associated data) — and only then decryption.
 */
function verifyThenDecrypt(envelope: SealedEnvelope, input: OpenInput, signed: (aad: Buffer) => Buffer, data: Buffer): OpenResult {
  if (envelope.kind !== input.kind) return { ok: false, code: 'MALFORMED', message: `Expected a sealed ${input.kind}, got a ${envelope.kind}.` };
  if (envelope.to !== input.recipient.deviceId) return { ok: false, code: 'NOT_FOR_US', message: `The ${envelope.kind} is addressed to ${envelope.to}, not to this device.` };
  const signingKey = input.signingKeyOf(envelope.from);
  if (!signingKey) return { ok: false, code: 'UNKNOWN_SENDER', message: `The ${envelope.kind} comes from ${envelope.from}, which is not a paired device.` };
  const aad = associatedData(envelope, input.context);
  let signatureOk = false;
  try {
    signatureOk = verify(null, signed(aad), publicKeyFromRaw(signingKey, 'Ed25519'), Buffer.from(envelope.sig!, 'base64url'));
  } catch {
    signatureOk = false;
  }
  if (!signatureOk) return { ok: false, code: 'BAD_SIGNATURE', message: `The signature on the ${envelope.kind} from ${envelope.from} does not verify.` };
  try {
    const shared = diffieHellman({ privateKey: input.recipient.encryptionPrivate, publicKey: publicKeyFromRaw(envelope.epk, 'X25519') });
    const key = deriveKey(shared, envelope.epk, input.recipient.encryptionKey);
    if (data.length < TAG_BYTES) throw new Error('short');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64url'));
    decipher.setAAD(aad);
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plaintext = Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]);
    return { ok: true, plaintext, from: envelope.from };
  } catch {
    return { ok: false, code: 'WRONG_KEY', message: `The ${envelope.kind} from ${envelope.from} could not be decrypted with this device's key.` };
  }
}

/** Verifies, then decrypts. Every refusal is typed; nothing is decrypted before the signature checks out. */
export function open(envelope: SealedEnvelope, input: OpenInput): OpenResult {
  if (!envelope.sig) return { ok: false, code: 'UNSIGNED', message: `An unsigned ${envelope.kind} from ${envelope.from} was refused.` };
  // Non-canonical base64 (spare low bits set) decodes to the same bytes: refuse it, so one envelope has one spelling.
  if (![envelope.epk, envelope.iv, envelope.ct, envelope.sig].every(isCanonicalBase64Url)) return { ok: false, code: 'MALFORMED', message: `The ${envelope.kind} from ${envelope.from} is not canonically encoded.` };
  return verifyThenDecrypt(envelope, input, (aad) => signedBytes(aad, envelope.iv, envelope.ct), Buffer.from(envelope.ct, 'base64url'));
}

/** Symmetric AES-256-GCM under a key derived from a pairing code (no device keys exist on the other side yet). */
export function sealWithKey(key: Buffer, aad: string, plaintext: Uint8Array): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  return Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]).toString('base64url');
}

export function openWithKey(key: Buffer, aad: string, sealed: string): Buffer | undefined {
  try {
    const data = Buffer.from(sealed, 'base64url');
    if (data.length < IV_BYTES + TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}


/**
 * The same sealing for large parts (session bundles, archives) without base64 or JSON around the
 * ciphertext: "BSL1", a 4-byte header length, the header (the envelope without `ct`, JSON), then
 * the raw ciphertext and tag. The signature covers the associated data, the iv and the
 * ciphertext's sha256.
 */
const BINARY_MAGIC = Buffer.from('BSL1');
const BINARY_HEADER_MAX = 4096;

function binarySigned(aad: Buffer, iv: string, ct: Uint8Array): Buffer {
  return Buffer.concat([aad, Buffer.from(`\n${iv}\n`), createHash('sha256').update(ct).digest()]);
}

export function sealBinary(input: SealInput): Buffer {
  const { head, aad, iv, ct } = encryptFor(input);
  const sig = sign(null, binarySigned(aad, iv, ct), input.sender.signingPrivate).toString('base64url');
  const header = Buffer.from(JSON.stringify({ ...head, iv, sig }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([BINARY_MAGIC, length, header, ct]);
}

export function openBinary(bytes: Uint8Array, input: OpenInput): OpenResult {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 8 || !data.subarray(0, 4).equals(BINARY_MAGIC)) return { ok: false, code: 'MALFORMED', message: 'Not a sealed binary part.' };
  const headerLength = data.readUInt32BE(4);
  if (headerLength > BINARY_HEADER_MAX || 8 + headerLength > data.length) return { ok: false, code: 'MALFORMED', message: 'The sealed part\'s header is damaged.' };
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(data.subarray(8, 8 + headerLength).toString('utf8')) as Record<string, unknown>;
  } catch {
    return { ok: false, code: 'MALFORMED', message: 'The sealed part\'s header is not JSON.' };
  }
  // The header is an envelope whose ciphertext follows it raw: check it with the same parser.
  const parsed = parseEnvelope(JSON.stringify({ ...header, ct: '' }));
  if ('ok' in parsed) return parsed as OpenResult;
  const envelope = parsed;
  const ct = data.subarray(8 + headerLength);
  if (!envelope.sig) return { ok: false, code: 'UNSIGNED', message: `An unsigned ${envelope.kind} from ${envelope.from} was refused.` };
  if (![envelope.epk, envelope.iv, envelope.sig].every(isCanonicalBase64Url)) return { ok: false, code: 'MALFORMED', message: `The ${envelope.kind} from ${envelope.from} is not canonically encoded.` };
  return verifyThenDecrypt(envelope, input, (aad) => binarySigned(aad, envelope.iv, ct), ct);
}
