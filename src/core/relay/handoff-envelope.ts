import { createHash } from 'node:crypto';
import type { DeviceIdentity, PublicDevice } from '../crypto/identity.js';
import { open, parseEnvelope, seal, type OpenResult } from '../crypto/seal.js';
import type { PairedDevice } from '../crypto/peers.js';

/** What a handoff message says once opened. The bundle rides inline when small, else as a sealed Object Store blob. */
export interface HandoffPayload {
  handoffId: string;
  sessionId: string;
  manifest: Record<string, unknown>;
  senderName: string;
  bundle?: unknown;
  blob?: { name: string; sha256: string; bytes: number };
}

export const SEAL_KIND = { handoff: 'handoff', blob: 'handoff-blob', receipt: 'receipt' } as const;

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function sealFor(sender: DeviceIdentity, recipient: PublicDevice, kind: string, context: string, value: unknown): Buffer {
  return Buffer.from(JSON.stringify(seal({ sender, recipient, kind, context, plaintext: Buffer.from(JSON.stringify(value)) })));
}

/** Opens bytes from the relay as JSON from a paired device, or a typed refusal. */
export function openFrom(me: DeviceIdentity, peers: readonly PairedDevice[], bytes: Uint8Array, kind: string, context: string): { ok: true; value: unknown; from: string } | Extract<OpenResult, { ok: false }> {
  const envelope = parseEnvelope(bytes);
  if ('ok' in envelope) return envelope as Extract<OpenResult, { ok: false }>;
  const opened = open(envelope, { recipient: me, kind, context, signingKeyOf: (id) => peers.find((p) => p.deviceId === id)?.signingKey });
  if (!opened.ok) return opened;
  try {
    return { ok: true, value: JSON.parse(opened.plaintext.toString('utf8')), from: opened.from };
  } catch {
    return { ok: false, code: 'MALFORMED', message: `The ${kind} from ${opened.from} is not JSON inside.` };
  }
}
