import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { readTextIfExists } from '../fs/read-small-file.js';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createFileAtomic, writeFileAtomic } from '../fs/index.js';
import { osKeyStore, type KeyStore } from '../store/at-rest/key-store.js';
import { deviceKeyAccount, loadDeviceKeys, storeDeviceKeys, type DevicePrivateKeys } from './identity-keychain.js';

/** Where this installation's identity lives; its private keys are in the OS keychain where one answers (issue 17). */
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
  /** Where the private keys are kept (baton doctor says it). */
  keyStorage: DeviceKeyStorage;
}

/** Where the private keys are: the OS keychain (only the entry's name on disk), or the 0600 file itself where no secret store answers. */
export type DeviceKeyStorage = { kind: 'keychain'; store: string; account: string } | { kind: 'file'; reason: string };

/** Version 1: the private keys in the file (no secret store). Version 2: public keys + the keychain entry that holds the private ones. */
interface IdentityFileV1 {
  version: 1;
  deviceId: string;
  name: string;
  encryptionPrivatePem: string;
  signingPrivatePem: string;
}
interface IdentityFileV2 {
  version: 2;
  deviceId: string;
  name: string;
  encryptionKey: string;
  signingKey: string;
  keychain: { account: string };
}
type IdentityFile = IdentityFileV1 | IdentityFileV2;

export interface IdentityOptions {
  /** The secret store for the private keys; default the OS keychain, null for none (the keys stay in the 0600 file). */
  keyStore?: KeyStore | null;
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

function build(deviceId: string, name: string, keys: DevicePrivateKeys, keyStorage: DeviceKeyStorage): DeviceIdentity {
  return {
    deviceId,
    name,
    encryptionPrivate: keys.encryptionPrivate,
    signingPrivate: keys.signingPrivate,
    encryptionKey: rawPublicKey(createPublicKey(keys.encryptionPrivate)),
    signingKey: rawPublicKey(createPublicKey(keys.signingPrivate)),
    keyStorage,
  };
}

function keysOfV1(file: IdentityFileV1): DevicePrivateKeys {
  return { encryptionPrivate: createPrivateKey(file.encryptionPrivatePem), signingPrivate: createPrivateKey(file.signingPrivatePem) };
}

function v2Of(identity: DeviceIdentity, account: string): IdentityFileV2 {
  return { version: 2, deviceId: identity.deviceId, name: identity.name, encryptionKey: identity.encryptionKey, signingKey: identity.signingKey, keychain: { account } };
}

function parseFile(text: string): IdentityFile {
  const file = JSON.parse(text) as IdentityFile;
  if ((file.version !== 1 && file.version !== 2) || !DEVICE_ID_PATTERN.test(file.deviceId) || typeof file.name !== 'string') throw new Error('unexpected fields');
  if (file.version === 2 && (file.keychain?.account !== deviceKeyAccount(file.deviceId) || typeof file.encryptionKey !== 'string' || typeof file.signingKey !== 'string')) throw new Error('unexpected keychain reference');
  return file;
}

function keyStoreOf(options: IdentityOptions): KeyStore | null {
  return options.keyStore === undefined ? osKeyStore() : options.keyStore;
}

/**
 * A version-1 file (private keys on disk) moves its keys into the keychain: write them there, read
 * them back, and only then rewrite the file without them (atomically: temp, fsync, rename). A crash
 * in between leaves the old file, and the next open does the same again. Where no secret store
 * answers, the file stays as it is and the identity says why (doctor shows it).
 */
async function migrateToKeychain(path: string, identity: DeviceIdentity, keys: KeyStore | null): Promise<DeviceIdentity> {
  if (!keys) return { ...identity, keyStorage: { kind: 'file', reason: 'no secret store is configured for this process' } };
  const account = deviceKeyAccount(identity.deviceId);
  try {
    await storeDeviceKeys(keys, account, identity);
  } catch (error) {
    return { ...identity, keyStorage: { kind: 'file', reason: `no secret store is available (${keys.label}: ${(error as Error).message})` } };
  }
  await writeFileAtomic(path, JSON.stringify(v2Of(identity, account)), { mode: FILE_MODE });
  return { ...identity, keyStorage: { kind: 'keychain', store: keys.label, account } };
}

/** Reads the identity, or undefined when this installation has none yet. Throws on a damaged file, naming it. */
export async function readIdentity(dataDir: string, options: IdentityOptions = {}): Promise<DeviceIdentity | undefined> {
  const path = identityPath(dataDir);
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  let file: IdentityFile;
  let v1: DeviceIdentity | undefined;
  try {
    file = parseFile(text);
    if (file.version === 1) v1 = build(file.deviceId, file.name, keysOfV1(file), { kind: 'file', reason: 'not moved yet' });
  } catch (error) {
    throw Object.assign(new Error(`The device identity at ${path} is damaged: ${(error as Error).message}`), { code: 'IDENTITY_DAMAGED' });
  }
  const keys = keyStoreOf(options);
  if (v1) return migrateToKeychain(path, v1, keys);
  const v2 = file as IdentityFileV2;
  const privateKeys = await loadDeviceKeys(keys, v2.keychain.account, path);
  const identity = build(v2.deviceId, v2.name, privateKeys, { kind: 'keychain', store: keys!.label, account: v2.keychain.account });
  if (identity.encryptionKey !== v2.encryptionKey || identity.signingKey !== v2.signingKey) {
    throw Object.assign(new Error(`The OS keychain entry ${v2.keychain.account} holds other keys than the device identity at ${path} names: refused.`), { code: 'IDENTITY_KEY_UNAVAILABLE' });
  }
  return identity;
}

/** This installation's identity, made on first use: private keys in the OS keychain where one answers, else in the 0600 file. */
export async function loadOrCreateIdentity(dataDir: string, name: string = defaultDeviceName(), options: IdentityOptions = {}): Promise<DeviceIdentity> {
  const existing = await readIdentity(dataDir, options);
  if (existing) return existing;
  const enc = generateKeyPairSync('x25519');
  const sig = generateKeyPairSync('ed25519');
  const deviceId = `d${randomBytes(10).toString('hex')}`;
  const privateKeys = { encryptionPrivate: enc.privateKey, signingPrivate: sig.privateKey };
  const keys = keyStoreOf(options);
  const account = deviceKeyAccount(deviceId);
  let identity: DeviceIdentity;
  let file: IdentityFile;
  try {
    if (!keys) throw new Error('no secret store is configured for this process');
    await storeDeviceKeys(keys, account, privateKeys);
    identity = build(deviceId, name, privateKeys, { kind: 'keychain', store: keys.label, account });
    file = v2Of(identity, account);
  } catch (error) {
    const reason = keys ? `no secret store is available (${keys.label}: ${(error as Error).message})` : (error as Error).message;
    identity = build(deviceId, name, privateKeys, { kind: 'file', reason });
    file = { version: 1, deviceId, name, encryptionPrivatePem: enc.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), signingPrivatePem: sig.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString() };
  }
  await mkdir(join(dataDir, DEVICE_DIR), { recursive: true, mode: DIR_MODE });
  // Create-if-absent: a host and a CLI starting at once must end up with the same identity.
  if (await createFileAtomic(identityPath(dataDir), JSON.stringify(file), { mode: FILE_MODE })) return identity;
  // Another process won: its identity stands, and our keychain entry (named for our id) goes.
  if (identity.keyStorage.kind === 'keychain') await keys!.remove(account).catch(() => false);
  const winner = await readIdentity(dataDir, options);
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
