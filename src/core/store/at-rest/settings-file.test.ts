import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SCRYPT_MAX_LOG_N } from '../../lifecycle/bundle-crypt.js';
import { KEY_ACCOUNT_PATTERN } from './key-store.js';
import { parseAtRestSettings } from './settings-file.js';

// The old schemas' own values, written out: a wrong constant in settings-file.ts must not pass on both sides.
const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
const SALT_PATTERN = /^[A-Za-z0-9+/]{22}==$/;
const SCRYPT_MIN_LOG_N = 14;

/**
 * The hand-written check of encryption.json against the zod schemas it replaced (kept here as the
 * oracle): on every document of a mutation corpus, both accept or both refuse, and what is accepted
 * comes out the same.
 */
const KeyRef = z.strictObject({ account: z.string().regex(KEY_ACCOUNT_PATTERN), keyId: z.string().regex(KEY_ID_PATTERN) });
const Oracle = z.discriminatedUnion('mode', [
  z.strictObject({ version: z.literal(1), mode: z.literal('keyring'), key: KeyRef, previous: z.array(KeyRef).default([]), enabledAt: z.string() }),
  z.strictObject({
    version: z.literal(1),
    mode: z.literal('passphrase'),
    kdf: z.strictObject({ name: z.literal('scrypt'), salt: z.string().regex(SALT_PATTERN), logN: z.number().int().min(SCRYPT_MIN_LOG_N).max(SCRYPT_MAX_LOG_N), r: z.literal(8), p: z.literal(1) }),
    key: z.strictObject({ keyId: KeyRef.shape.keyId }),
    enabledAt: z.string(),
  }),
]);

const keyring = {
  version: 1,
  mode: 'keyring',
  key: { account: 'data-key-0123456789abcdef', keyId: 'fedcba9876543210' },
  previous: [{ account: 'data-key-00112233445566778899', keyId: '0011223344556677' }],
  enabledAt: '2026-12-03T15:00:00.000Z',
};
const passphrase = {
  version: 1,
  mode: 'passphrase',
  kdf: { name: 'scrypt', salt: 'AAECAwQFBgcICQoLDA0ODw==', logN: 15, r: 8, p: 1 },
  key: { keyId: '0123456789abcdef' },
  enabledAt: '2026-12-03T15:00:00.000Z',
};

const ODD_VALUES: unknown[] = [
  undefined, null, 0, 1, -1, 1.5, 8, 13, 14, 15, 20, 21, 1e308, Number.MAX_SAFE_INTEGER, '', '1', 'x', 'keyring', 'passphrase', 'scrypt',
  'data-key-0123456789abcdef', 'DATA-KEY-0123456789ABCDEF', 'data-key-0123', `data-key-${'a'.repeat(65)}`, 'fedcba9876543210', 'FEDCBA9876543210',
  'fedcba987654321', 'fedcba98765432100', 'AAECAwQFBgcICQoLDA0ODw=', 'AAECAwQFBgcICQoLDA0ODw==\n', 'fedcba9876543210\n', true, false, [], [1], {},
  { account: 'data-key-0123456789abcdef' }, { keyId: 'fedcba9876543210' }, 'x'.repeat(10_000),
];

/** Every leaf path of a document, with the object it sits in. */
function paths(doc: unknown, at: string[] = []): string[][] {
  if (typeof doc !== 'object' || doc === null) return [at];
  return [at, ...Object.entries(doc).flatMap(([k, v]) => paths(v, [...at, k]))];
}

function withValue(doc: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  if (path.length === 0) return value;
  let parent = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  if (value === undefined) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = value;
  return copy;
}

function corpus(): unknown[] {
  const docs: unknown[] = [];
  for (const base of [keyring, passphrase]) {
    docs.push(base);
    for (const path of paths(base)) {
      for (const value of ODD_VALUES) docs.push(withValue(base, path, value));
      // An extra key beside this one, and the keys of the other mode mixed in.
      if (path.length > 0) docs.push(withValue(base, [...path.slice(0, -1), 'extra'], 1));
    }
    // As JSON.parse makes them: a `__proto__` key is an own key of the object, refused like any other.
    docs.push(JSON.parse(JSON.stringify(base).replace('{', '{"__proto__":{"polluted":1},')));
    docs.push(JSON.parse(JSON.stringify(base).replace('"key":{', '"key":{"__proto__":{},')));
  }
  docs.push({ ...keyring, kdf: passphrase.kdf }, { ...passphrase, previous: [] }, { ...keyring, previous: [] }, { ...keyring, previous: undefined });
  docs.push(withValue(keyring, ['previous'], [keyring.key, keyring.key, { ...keyring.key, extra: 1 }]));
  return docs;
}

describe('encryption.json, checked by hand', () => {
  it('agrees with the zod schemas it replaced on every document of the corpus', () => {
    const docs = corpus();
    expect(docs.length).toBeGreaterThan(600);
    let accepted = 0;
    for (const doc of docs) {
      const mine = parseAtRestSettings(doc);
      const oracle = Oracle.safeParse(doc);
      const label = JSON.stringify(doc)?.slice(0, 300);
      expect(mine.ok, label).toBe(oracle.success);
      if (mine.ok && oracle.success) {
        accepted++;
        expect(mine.settings, label).toEqual(oracle.data);
      }
      if (!mine.ok) expect(mine.issues.length, label).toBeGreaterThan(0);
    }
    // Not a corpus of refusals only: the valid shapes (and the harmless variants) pass.
    expect(accepted).toBeGreaterThan(10);
  });

  it('names every issue with its path', () => {
    expect(parseAtRestSettings({ version: 1, mode: 'keyring' })).toEqual({ ok: false, issues: ['key: expected an object, got nothing', 'enabledAt: expected a string, got nothing'] });
    expect(parseAtRestSettings({ ...passphrase, kdf: { ...passphrase.kdf, logN: 40, extra: true } })).toEqual({
      ok: false,
      issues: ['kdf.extra: unknown key', `kdf.logN: expected a whole number from ${SCRYPT_MIN_LOG_N} to ${SCRYPT_MAX_LOG_N}, got 40`],
    });
    expect(parseAtRestSettings({ ...keyring, previous: [{ account: 'x', keyId: 'y' }] })).toEqual({
      ok: false,
      issues: ['previous.0.account: expected a keychain account such as data-key-<hex>', 'previous.0.keyId: expected 16 lowercase hex digits'],
    });
    expect(parseAtRestSettings([])).toEqual({ ok: false, issues: ['(root): expected an object, got an array'] });
    expect(parseAtRestSettings({ mode: 'none' })).toEqual({ ok: false, issues: ['mode: expected "keyring" or "passphrase", got a string'] });
  });
});
