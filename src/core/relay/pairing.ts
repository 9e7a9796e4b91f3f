import { hkdfSync, randomBytes } from 'node:crypto';
import { DEVICE_ID_PATTERN, publicKeyFromRaw, publicPart, type DeviceIdentity, type PublicDevice } from '../crypto/identity.js';
import { addPeer, type PairedDevice } from '../crypto/peers.js';
import { openWithKey, sealWithKey } from '../crypto/seal.js';
import { decodePairingCode, formatPairingCode, normalizePairingCode, PAIRING_CODE_BYTES } from '../../shared/pairing-code.js';
import { formatBatonUrl } from '../../shared/baton-url.js';
import type { Relay } from './connection.js';
import { PAIRING_BUCKET, PAIRING_TTL_MS } from './resources.js';

/**
 * Pairing over the relay (issue 13). The code never goes to the relay: both sides derive from it a
 * channel name (where the two messages meet) and an AES-256-GCM key (what they are sealed with).
 * The relay sees an opaque channel and two ciphertexts, so it can neither read nor substitute the
 * public keys. The joiner's answer is a KV create: a second join of the same code fails.
 */
export const PAIRING_POLL_MS = 200;

export class PairingError extends Error {
  constructor(
    readonly code: 'BAD_CODE' | 'CODE_UNKNOWN' | 'CODE_USED' | 'CODE_EXPIRED' | 'TAMPERED' | 'TIMEOUT' | 'SELF',
    message: string,
  ) {
    super(message);
  }
}

interface Derived {
  channel: string;
  key: Buffer;
}

function derive(normalized: string): Derived {
  const secret = Buffer.from(decodePairingCode(normalized));
  const channel = Buffer.from(hkdfSync('sha256', secret, 'baton-pair-v1', 'channel', 16)).toString('hex');
  const key = Buffer.from(hkdfSync('sha256', secret, 'baton-pair-v1', 'key', 32));
  return { channel, key };
}

interface OfferBody {
  device: PublicDevice;
  expiresAt: string;
}

function parseDevice(value: unknown): PublicDevice | undefined {
  const d = value as Partial<PublicDevice> | null;
  if (!d || typeof d.deviceId !== 'string' || !DEVICE_ID_PATTERN.test(d.deviceId) || typeof d.name !== 'string') return undefined;
  try {
    publicKeyFromRaw(d.encryptionKey ?? '', 'X25519');
    publicKeyFromRaw(d.signingKey ?? '', 'Ed25519');
  } catch {
    return undefined;
  }
  return { deviceId: d.deviceId, name: d.name, encryptionKey: d.encryptionKey!, signingKey: d.signingKey! };
}

export interface PairingStarted {
  code: string;
  link: string;
  expiresAt: string;
  /** Resolves with the device that joined (and is now paired), or rejects on timeout. */
  wait(timeoutMs?: number): Promise<PairedDevice>;
  cancel(): Promise<void>;
}

export async function startPairing(relay: Relay, dataDir: string, identity: DeviceIdentity, now = Date.now()): Promise<PairingStarted> {
  const code = formatPairingCode(randomBytes(PAIRING_CODE_BYTES));
  const normalized = normalizePairingCode(code)!;
  const { channel, key } = derive(normalized);
  const expiresAt = new Date(now + PAIRING_TTL_MS).toISOString();
  const kv = await relay.kv(PAIRING_BUCKET);
  const body: OfferBody = { device: publicPart(identity), expiresAt };
  await kv.create(`${channel}.offer`, sealWithKey(key, `offer:${channel}`, Buffer.from(JSON.stringify(body))));
  const cleanup = async () => {
    await kv.purge(`${channel}.offer`).catch(() => undefined);
    await kv.purge(`${channel}.answer`).catch(() => undefined);
  };
  let cancelled = false;
  return {
    code,
    link: formatBatonUrl({ kind: 'pair', code: normalized }),
    expiresAt,
    cancel: async () => {
      cancelled = true;
      await cleanup();
    },
    wait: async (timeoutMs = PAIRING_TTL_MS) => {
      const deadline = Math.min(Date.now() + timeoutMs, Date.parse(expiresAt));
      while (!cancelled && Date.now() < deadline) {
        const entry = await kv.get(`${channel}.answer`).catch(() => null);
        if (entry && entry.operation === 'PUT') {
          const opened = openWithKey(key, `answer:${channel}`, entry.string());
          const device = opened ? parseDevice(JSON.parse(opened.toString('utf8'))) : undefined;
          await cleanup();
          if (!device) throw new PairingError('TAMPERED', 'The answer on the relay was not sealed with this code; pairing stopped. Start again with baton device pair.');
          return addPeer(dataDir, device);
        }
        await new Promise((r) => setTimeout(r, PAIRING_POLL_MS));
      }
      await cleanup();
      throw new PairingError('TIMEOUT', 'No device joined before the code expired.');
    },
  };
}

export async function joinPairing(relay: Relay, dataDir: string, identity: DeviceIdentity, input: string, now = Date.now()): Promise<PairedDevice> {
  const normalized = normalizePairingCode(input);
  if (!normalized) throw new PairingError('BAD_CODE', 'That is not a pairing code (32 base32 characters, as baton device pair prints it).');
  const { channel, key } = derive(normalized);
  const kv = await relay.kv(PAIRING_BUCKET);
  const entry = await kv.get(`${channel}.offer`);
  if (!entry || entry.operation !== 'PUT') throw new PairingError('CODE_UNKNOWN', 'No device is waiting with that code (it was used, expired, or mistyped).');
  const opened = openWithKey(key, `offer:${channel}`, entry.string());
  if (!opened) throw new PairingError('TAMPERED', 'The offer on the relay was not sealed with this code; nothing was paired.');
  const body = JSON.parse(opened.toString('utf8')) as OfferBody;
  const device = parseDevice(body.device);
  if (!device) throw new PairingError('TAMPERED', 'The offer holds no valid device keys; nothing was paired.');
  if (device.deviceId === identity.deviceId) throw new PairingError('SELF', 'This is the device that made the code; join from the other device.');
  if (Date.parse(body.expiresAt) < now) throw new PairingError('CODE_EXPIRED', `The code expired at ${body.expiresAt}.`);
  try {
    await kv.create(`${channel}.answer`, sealWithKey(key, `answer:${channel}`, Buffer.from(JSON.stringify(publicPart(identity)))));
  } catch {
    throw new PairingError('CODE_USED', 'That code was already used by another device.');
  }
  return addPeer(dataDir, device);
}
