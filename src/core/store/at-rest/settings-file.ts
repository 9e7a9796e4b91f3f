import { SCRYPT_MAX_LOG_N } from '../../lifecycle/bundle-crypt.js';
import { KEY_ACCOUNT_PATTERN } from './key-store.js';

/**
 * The shape of encryption.json, checked by hand rather than with zod: every encrypted command reads
 * this file first, and zod's load was ~12–15 ms of CPU of a warm `baton list` and of the picker's
 * first screen, which otherwise never parse anything (issue 17 with issue 15's targets, bench/README
 * "Twenty-second sitting"). Strict like the schemas it replaces: an unknown key, a missing one or a
 * value of the wrong shape is an issue naming its path; the caller refuses the file with all of them.
 */

/** A keychain entry's account name and the id of the key it must hold (never the key). */
export interface KeyRef {
  account: string;
  keyId: string;
}

export interface EncryptionState {
  version: 1;
  mode: 'keyring';
  key: KeyRef;
  /** Keys being rotated away from: still read, never written, until the last file has moved (`baton key rotate`). */
  previous: KeyRef[];
  enabledAt: string;
}

/** scrypt's parameters for a passphrase store; logN bounded so a forged file cannot make a host allocate gigabytes. */
export interface ScryptParams {
  name: 'scrypt';
  salt: string;
  logN: number;
  r: 8;
  p: 1;
}

/** Passphrase mode (passphrase.ts): the file keeps the salt, parameters and key id (the check value), never the key. */
export interface PassphraseState {
  version: 1;
  mode: 'passphrase';
  kdf: ScryptParams;
  key: { keyId: string };
  enabledAt: string;
}

export type AtRestSettings = EncryptionState | PassphraseState;

export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
/** base64 of 16 bytes. */
export const SALT_PATTERN = /^[A-Za-z0-9+/]{22}==$/;
/** The lowest scrypt cost a settings file may name (2^14). */
export const SCRYPT_MIN_LOG_N = 14;

export type SettingsParse = { ok: true; settings: AtRestSettings } | { ok: false; issues: string[] };

/** Collects the issues of one document; a check answers whether its children can be checked. */
class Checker {
  readonly issues: string[] = [];

  fail(path: string, message: string): false {
    this.issues.push(`${path || '(root)'}: ${message}`);
    return false;
  }

  object(value: unknown, path: string, keys: readonly string[], optional: readonly string[] = []): value is Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail(path, `expected an object, got ${describe(value)}`);
    // Unknown keys are issues, and the known ones are still checked (all issues are named at once).
    for (const key of Object.keys(value)) if (!keys.includes(key) && !optional.includes(key)) this.fail(join(path, key), 'unknown key');
    return true;
  }

  literal(value: unknown, path: string, expected: string | number): boolean {
    return value === expected || this.fail(path, `expected ${JSON.stringify(expected)}, got ${describe(value)}`);
  }

  string(value: unknown, path: string, pattern?: RegExp, what?: string): value is string {
    if (typeof value !== 'string') return this.fail(path, `expected a string, got ${describe(value)}`);
    return !pattern || pattern.test(value) || this.fail(path, `expected ${what ?? `a string matching ${pattern}`}`);
  }

  integer(value: unknown, path: string, min: number, max: number): boolean {
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.fail(path, `expected a whole number, got ${describe(value)}`);
    return (value >= min && value <= max) || this.fail(path, `expected a whole number from ${min} to ${max}, got ${value}`);
  }

  keyRef(value: unknown, path: string): void {
    if (!this.object(value, path, ['account', 'keyId'])) return;
    this.string(value.account, join(path, 'account'), KEY_ACCOUNT_PATTERN, 'a keychain account such as data-key-<hex>');
    this.string(value.keyId, join(path, 'keyId'), KEY_ID_PATTERN, '16 lowercase hex digits');
  }
}

function join(path: string, key: string | number): string {
  return path ? `${path}.${key}` : String(key);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value === 'undefined' ? 'nothing' : `a ${typeof value}`;
}

/** encryption.json's parsed JSON checked against either mode's shape. */
export function parseAtRestSettings(raw: unknown): SettingsParse {
  const check = new Checker();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    check.fail('', `expected an object, got ${describe(raw)}`);
    return { ok: false, issues: check.issues };
  }
  const doc = raw as Record<string, unknown>;
  if (doc.mode === 'keyring') {
    check.object(doc, '', ['version', 'mode', 'key', 'enabledAt'], ['previous']);
    check.literal(doc.version, 'version', 1);
    check.keyRef(doc.key, 'key');
    if (doc.previous !== undefined) {
      // Every index, holes included (forEach would skip them).
      if (Array.isArray(doc.previous)) for (let i = 0; i < doc.previous.length; i++) check.keyRef(doc.previous[i], join('previous', i));
      else check.fail('previous', `expected an array, got ${describe(doc.previous)}`);
    }
    check.string(doc.enabledAt, 'enabledAt');
    if (check.issues.length > 0) return { ok: false, issues: check.issues };
    const settings: EncryptionState = { version: 1, mode: 'keyring', key: keyRefOf(doc.key), previous: ((doc.previous ?? []) as unknown[]).map(keyRefOf), enabledAt: doc.enabledAt as string };
    return { ok: true, settings };
  }
  if (doc.mode === 'passphrase') {
    check.object(doc, '', ['version', 'mode', 'kdf', 'key', 'enabledAt']);
    check.literal(doc.version, 'version', 1);
    const kdf = doc.kdf as Record<string, unknown>;
    if (check.object(kdf, 'kdf', ['name', 'salt', 'logN', 'r', 'p'])) {
      check.literal(kdf.name, 'kdf.name', 'scrypt');
      check.string(kdf.salt, 'kdf.salt', SALT_PATTERN, 'base64 of 16 bytes');
      check.integer(kdf.logN, 'kdf.logN', SCRYPT_MIN_LOG_N, SCRYPT_MAX_LOG_N);
      check.literal(kdf.r, 'kdf.r', 8);
      check.literal(kdf.p, 'kdf.p', 1);
    }
    const key = doc.key as Record<string, unknown>;
    if (check.object(key, 'key', ['keyId'])) check.string(key.keyId, 'key.keyId', KEY_ID_PATTERN, '16 lowercase hex digits');
    check.string(doc.enabledAt, 'enabledAt');
    if (check.issues.length > 0) return { ok: false, issues: check.issues };
    const settings: PassphraseState = {
      version: 1,
      mode: 'passphrase',
      kdf: { name: 'scrypt', salt: kdf.salt as string, logN: kdf.logN as number, r: 8, p: 1 },
      key: { keyId: key.keyId as string },
      enabledAt: doc.enabledAt as string,
    };
    return { ok: true, settings };
  }
  check.fail('mode', `expected "keyring" or "passphrase", got ${describe(doc.mode)}`);
  return { ok: false, issues: check.issues };
}

/** A checked reference, copied so the settings hold no other key a forged file carried. */
function keyRefOf(value: unknown): KeyRef {
  const ref = value as KeyRef;
  return { account: ref.account, keyId: ref.keyId };
}
