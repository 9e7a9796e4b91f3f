import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { readTextIfExists } from '../fs/read-small-file.js';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createFileAtomic } from '../fs/index.js';

/** Where this installation's identity lives, until encryption at rest (issue 17) moves it into the OS keychain. */
export const DEVICE_DIR = 'device';
export const IDENTITY_FILE = 'identity.json';
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** A device as others know it: public keys only. */
export interface PublicDevice {
  deviceId: string;
  name: string;
  /** Raw 32-byte X25519 public key, base64url. */
  encryptionKey: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  signingKey: string;
}

export interface DeviceIdentity extends PublicDevice {
  encryptionPrivate: KeyObject;
  signingPrivate: KeyObject;
}

interface IdentityFile {
  version: 1;
  deviceId: string;
  name: string;
  encryptionPrivatePem: string;
  signingPrivatePem: string;
}

export function identityPath(dataDir: string): string {
  return join(dataDir, DEVICE_DIR, IDENTITY_FILE);
}

/** Raw public key bytes of an X25519/Ed25519 key, base64url (the JWK `x`). */
export function rawPublicKey(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as { x?: string };
  if (!jwk.x) throw new Error('not an OKP public key');
  return jwk.x;
}

export function publicKeyFromRaw(raw: string, curve: 'X25519' | 'Ed25519'): KeyObject {
  if (!/^[A-Za-z0-9_-]{43}$/.test(raw)) throw Object.assign(new Error(`Invalid ${curve} public key`), { code: 'BAD_KEY' });
  return createPublicKey({ key: { kty: 'OKP', crv: curve, x: raw }, format: 'jwk' });
}

/** A short, human-comparable fingerprint of both public keys: 8 groups of 4 hex digits. */
export function fingerprint(device: Pick<PublicDevice, 'encryptionKey' | 'signingKey'>): string {
  const digest = createHash('sha256').update(`baton-device-v1\n${device.signingKey}\n${device.encryptionKey}`).digest('hex');
  return (digest.slice(0, 32).match(/.{4}/g) ?? []).join(' ');
}

export function publicPart(identity: DeviceIdentity): PublicDevice {
  return { deviceId: identity.deviceId, name: identity.name, encryptionKey: identity.encryptionKey, signingKey: identity.signingKey };
}

/** Device ids are subject tokens on the relay: lowercase hex only, so they can never carry '.', '*' or '>'. */
export const DEVICE_ID_PATTERN = /^d[0-9a-f]{20}$/;

function fromFile(file: IdentityFile): DeviceIdentity {
  const encryptionPrivate = createPrivateKey(file.encryptionPrivatePem);
  const signingPrivate = createPrivateKey(file.signingPrivatePem);
  return {
    deviceId: file.deviceId,
    name: file.name,
    encryptionPrivate,
    signingPrivate,
    encryptionKey: rawPublicKey(createPublicKey(encryptionPrivate)),
    signingKey: rawPublicKey(createPublicKey(signingPrivate)),
  };
}

/** Reads the identity, or undefined when this installation has none yet. Throws on a damaged file, naming it. */
export async function readIdentity(dataDir: string): Promise<DeviceIdentity | undefined> {
  const path = identityPath(dataDir);
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  try {
    const file = JSON.parse(text) as IdentityFile;
    if (file.version !== 1 || !DEVICE_ID_PATTERN.test(file.deviceId) || typeof file.name !== 'string') throw new Error('unexpected fields');
    return fromFile(file);
  } catch (error) {
    throw Object.assign(new Error(`The device identity at ${path} is damaged: ${(error as Error).message}`), { code: 'IDENTITY_DAMAGED' });
  }
}

/** This installation's identity, made on first use (0600 in the data directory). */
export async function loadOrCreateIdentity(dataDir: string, name: string = defaultDeviceName()): Promise<DeviceIdentity> {
  const existing = await readIdentity(dataDir);
  if (existing) return existing;
  const enc = generateKeyPairSync('x25519');
  const sig = generateKeyPairSync('ed25519');
  const file: IdentityFile = {
    version: 1,
    deviceId: `d${randomBytes(10).toString('hex')}`,
    name,
    encryptionPrivatePem: enc.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    signingPrivatePem: sig.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
  await mkdir(join(dataDir, DEVICE_DIR), { recursive: true, mode: DIR_MODE });
  // Create-if-absent: a host and a CLI starting at once must end up with the same identity.
  if (await createFileAtomic(identityPath(dataDir), JSON.stringify(file), { mode: FILE_MODE })) return fromFile(file);
  const winner = await readIdentity(dataDir);
  if (!winner) throw new Error(`The device identity at ${identityPath(dataDir)} vanished while it was made`);
  return winner;
}

/** Device names are shown to people and used in commands: printable, short. */
export const DEVICE_NAME_MAX = 64;
export function defaultDeviceName(): string {
  return sanitizeDeviceName(process.env.BATON_DEVICE_NAME || hostname() || 'device');
}
export function sanitizeDeviceName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9._ -]/g, '-').trim().slice(0, DEVICE_NAME_MAX);
  return clean || 'device';
}
