import * as nodeCrypto from 'node:crypto';

type OneShotHash = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
// crypto.hash (Node 20.12+, Electron's Node 22) digests without a Hash object: a cold scan hashes
// three times per file (20k files). createHash where the running Node is older (engines: >=20).
const oneShot = (nodeCrypto as { hash?: OneShotHash }).hash;

export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', data, 'hex') : nodeCrypto.createHash('sha256').update(data).digest('hex');
}

/** JSON with object keys sorted at every depth: the same value always hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
