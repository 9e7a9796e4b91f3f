import { rm } from 'node:fs/promises';
import { readTextIfExists } from '../fs/read-small-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/index.js';

/** The relay configuration: where the NATS server is and how to log in. Kept 0600: it may hold a token. */
export const RELAY_CONFIG_FILE = 'relay.json';
const FILE_MODE = 0o600;

export interface RelayConfig {
  version: 1;
  /** nats://host:port or tls://host:port (several separated by commas). */
  url: string;
  token?: string;
  /** Path to a NATS .creds file (JWT + nkey seed). */
  credsPath?: string;
  /** Path to a PEM CA bundle that signs the server's certificate. */
  tlsCaPath?: string;
  connectedAt: string;
}

export function relayConfigPath(dataDir: string): string {
  return join(dataDir, RELAY_CONFIG_FILE);
}

export type RelayUrlCheck = { ok: true; servers: string[] } | { ok: false; message: string };

/** nats://, tls:// (or bare host:port) URLs only, each with a host and a port that is a number. */
export function checkRelayUrl(url: string): RelayUrlCheck {
  const servers = url.split(',').map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) return { ok: false, message: 'The relay URL is empty.' };
  for (const server of servers) {
    let parsed: URL;
    try {
      parsed = new URL(server.includes('://') ? server : `nats://${server}`);
    } catch {
      return { ok: false, message: `"${server}" is not a URL (expected nats://host:port).` };
    }
    if (!['nats:', 'tls:'].includes(parsed.protocol)) return { ok: false, message: `"${server}" uses ${parsed.protocol}; the relay speaks nats:// or tls://.` };
    if (!parsed.hostname) return { ok: false, message: `"${server}" has no host.` };
    if (parsed.port && !/^\d+$/.test(parsed.port)) return { ok: false, message: `"${server}" has no valid port.` };
  }
  return { ok: true, servers };
}

export async function readRelayConfig(dataDir: string): Promise<RelayConfig | undefined> {
  const path = relayConfigPath(dataDir);
  const text = await readTextIfExists(path);
  if (text === undefined) return undefined;
  let value: Partial<RelayConfig>;
  try {
    value = JSON.parse(text) as Partial<RelayConfig>;
  } catch {
    throw Object.assign(new Error(`The relay configuration at ${path} is not JSON; run baton relay disconnect and connect again.`), { code: 'RELAY_CONFIG_DAMAGED' });
  }
  if (value.version !== 1 || typeof value.url !== 'string' || !checkRelayUrl(value.url).ok) {
    throw Object.assign(new Error(`The relay configuration at ${path} is not a version-1 configuration with a nats:// URL.`), { code: 'RELAY_CONFIG_DAMAGED' });
  }
  return value as RelayConfig;
}

export async function writeRelayConfig(dataDir: string, config: RelayConfig): Promise<void> {
  await writeFileAtomic(relayConfigPath(dataDir), JSON.stringify(config, null, 2), { mode: FILE_MODE });
}

/** True when there was a configuration to remove. */
export async function deleteRelayConfig(dataDir: string): Promise<boolean> {
  const existed = (await readRelayConfig(dataDir).catch(() => true)) !== undefined;
  await rm(relayConfigPath(dataDir), { force: true });
  return existed;
}
