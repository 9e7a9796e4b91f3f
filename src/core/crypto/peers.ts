import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/index.js';
import { DEVICE_DIR, DEVICE_ID_PATTERN, fingerprint, type PublicDevice } from './identity.js';

/** The devices this installation paired with (public keys only), 0600 beside the identity. */
export const PEERS_FILE = 'peers.json';

export interface PairedDevice extends PublicDevice {
  fingerprint: string;
  pairedAt: string;
}

interface PeersFile {
  version: 1;
  peers: PairedDevice[];
}

export function peersPath(dataDir: string): string {
  return join(dataDir, DEVICE_DIR, PEERS_FILE);
}

export async function readPeers(dataDir: string): Promise<PairedDevice[]> {
  let text: string;
  try {
    text = await readFile(peersPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const file = JSON.parse(text) as PeersFile;
  if (file.version !== 1 || !Array.isArray(file.peers)) throw Object.assign(new Error(`${peersPath(dataDir)} is not a version-1 list of paired devices`), { code: 'PEERS_DAMAGED' });
  return file.peers;
}

async function writePeers(dataDir: string, peers: PairedDevice[]): Promise<void> {
  await mkdir(join(dataDir, DEVICE_DIR), { recursive: true, mode: 0o700 });
  await writeFileAtomic(peersPath(dataDir), JSON.stringify({ version: 1, peers } satisfies PeersFile, null, 2), { mode: 0o600 });
}

/** Adds (or replaces, by device id) a paired device. */
export async function addPeer(dataDir: string, device: PublicDevice): Promise<PairedDevice> {
  if (!DEVICE_ID_PATTERN.test(device.deviceId)) throw Object.assign(new Error(`"${device.deviceId}" is not a device id`), { code: 'BAD_DEVICE' });
  const paired: PairedDevice = { ...device, fingerprint: fingerprint(device), pairedAt: new Date().toISOString() };
  const peers = (await readPeers(dataDir)).filter((p) => p.deviceId !== device.deviceId);
  await writePeers(dataDir, [...peers, paired]);
  return paired;
}

/**
 * How a device is named to a person: `name (id)` when this device knows it (itself or a paired one),
 * else the bare id, said to be unpaired. The relay stores ids only; names stay on the devices.
 */
export function deviceLabel(deviceId: string, known: readonly { deviceId: string; name: string }[]): string {
  const device = known.find((d) => d.deviceId === deviceId);
  return device ? `${device.name} (${deviceId})` : `an unpaired device ${deviceId}`;
}

/** Finds a paired device by name or id (names may repeat: then the id is needed). */
export function findPeer(peers: PairedDevice[], nameOrId: string): { ok: true; peer: PairedDevice } | { ok: false; message: string } {
  const byId = peers.find((p) => p.deviceId === nameOrId);
  if (byId) return { ok: true, peer: byId };
  const byName = peers.filter((p) => p.name === nameOrId);
  if (byName.length === 1) return { ok: true, peer: byName[0]! };
  if (byName.length > 1) return { ok: false, message: `${byName.length} paired devices are called "${nameOrId}"; use the device id (${byName.map((p) => p.deviceId).join(', ')}).` };
  return { ok: false, message: `No paired device "${nameOrId}". Paired: ${peers.map((p) => p.name).join(', ') || 'none'} (baton device list).` };
}

/** Revokes a device for future handoffs: its messages are dropped from now on. */
export async function removePeer(dataDir: string, nameOrId: string): Promise<{ ok: true; peer: PairedDevice } | { ok: false; message: string }> {
  const peers = await readPeers(dataDir);
  const found = findPeer(peers, nameOrId);
  if (!found.ok) return found;
  await writePeers(dataDir, peers.filter((p) => p.deviceId !== found.peer.deviceId));
  return found;
}
