import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { rawPublicKey, type DeviceIdentity } from '../../crypto/identity.js';

/** A device identity held only in memory (an unpaired stranger in tests). */
export function generateIdentity(name: string): DeviceIdentity {
  const enc = generateKeyPairSync('x25519');
  const sig = generateKeyPairSync('ed25519');
  return {
    deviceId: `d${randomBytes(10).toString('hex')}`,
    name,
    encryptionKey: rawPublicKey(enc.publicKey),
    signingKey: rawPublicKey(sig.publicKey),
    encryptionPrivate: enc.privateKey,
    signingPrivate: sig.privateKey,
    keyStorage: { kind: 'file', reason: 'held in memory by a test' },
  };
}
