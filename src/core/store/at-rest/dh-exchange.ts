import { createPublicKey, diffieHellman, generateKeyPairSync, type KeyPairKeyObjectResult } from 'node:crypto';

/**
 * The Diffie-Hellman exchange of the Secret Service's dh-ietf1024-sha256-aes128-cbc-pkcs7 session
 * (RFC 2409's second Oakley group, modp2), through key objects: crypto.getDiffieHellman('modp2')
 * checks the group's prime for primality when it is made (~40 ms here), generateKeyPairSync('dh')
 * with the named group does not (0.3–0.7 ms). The other side's public value arrives as raw bytes,
 * so it is wrapped in a SubjectPublicKeyInfo built on our own key's algorithm identifier (the same
 * group's parameters).
 */
export const GROUP_BYTES = 128;

/** A DER length. */
function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const der = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), derLength(content.length), content]);

/** The value and the end of the DER element at `at`. */
function element(buf: Buffer, at: number): { start: number; end: number } {
  let len = buf[at + 1]!;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    start += n;
  }
  if (start + len > buf.length) throw new Error('a DER element past its end');
  return { start, end: start + len };
}

/** Left-padded to the group's size; throws when longer (not a value of the group). */
export function toGroupSize(v: Buffer): Buffer {
  let from = 0;
  while (from < v.length - 1 && v[from] === 0) from++;
  const trimmed = v.subarray(from);
  if (trimmed.length > GROUP_BYTES) throw new Error('a Diffie-Hellman value larger than the group');
  return Buffer.concat([Buffer.alloc(GROUP_BYTES - trimmed.length), trimmed]);
}

export interface DhExchange {
  /** Our public value, big-endian, GROUP_BYTES long. */
  publicValue: Buffer;
  /** The shared secret with the other side's public value (raw big-endian bytes), GROUP_BYTES long; throws for a value the group refuses. */
  sharedSecret(theirs: Buffer): Buffer;
}

/** Node's `dh` key generation with a named group (Node ≥ 15), which @types/node does not declare. */
const generateDhPair = generateKeyPairSync as unknown as (type: 'dh', options: { group: 'modp2' }) => KeyPairKeyObjectResult;

export function newDhExchange(): DhExchange {
  const { privateKey, publicKey } = generateDhPair('dh', { group: 'modp2' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING (an INTEGER) }
  const outer = element(spki, 0);
  const algorithm = element(spki, outer.start);
  const algorithmBytes = spki.subarray(outer.start, algorithm.end);
  const bits = element(spki, algorithm.end);
  const integer = element(spki, bits.start + 1); // after the BIT STRING's unused-bits byte
  return {
    publicValue: toGroupSize(spki.subarray(integer.start, integer.end)),
    sharedSecret(theirs) {
      const magnitude = toGroupSize(theirs);
      let from = 0;
      while (from < magnitude.length - 1 && magnitude[from] === 0) from++;
      const value = magnitude.subarray(from);
      const asInteger = der(0x02, value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
      const key = createPublicKey({ key: der(0x30, Buffer.concat([algorithmBytes, der(0x03, Buffer.concat([Buffer.from([0]), asInteger]))])), format: 'der', type: 'spki' });
      return toGroupSize(diffieHellman({ privateKey, publicKey: key }));
    },
  };
}
