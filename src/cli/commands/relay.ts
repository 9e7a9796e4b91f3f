import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { checkRelayUrl, deleteRelayConfig, readRelayConfig, writeRelayConfig, type RelayConfig } from '../../core/relay/config.js';
import { checkRelayHealth, connectRelay, ensureRelayResources, RelayError } from '../../core/relay/connection.js';
import { readInboxDrops } from '../../core/relay/inbox-drops.js';
import { openDeviceRelay } from '../../core/relay/open-relay.js';
import { openCliStore } from '../context.js';
import { createOutput, EXIT, type Output } from '../output.js';

interface ConnectFlags {
  creds?: string;
  token?: string;
  tlsCa?: string;
  json?: boolean;
}

/** `baton relay …`: configure the NATS JetStream relay (README "Across machines"). Nothing is sent anywhere without one. */
export function registerRelay(program: Command): void {
  const relay = program.command('relay').description('connect this device to a NATS JetStream relay for handoffs across machines');
  relay
    .command('connect <url>')
    .description('check the NATS server, create Baton\'s streams and buckets, and keep the configuration (0600)')
    .option('--creds <file>', 'a NATS .creds file')
    .option('--token <token>', 'an auth token')
    .option('--tls-ca <file>', 'a PEM CA bundle for tls:// servers')
    .option('--json', 'print one versioned JSON object')
    .action(async (url: string, flags: ConnectFlags) => {
      process.exitCode = await runConnect(url, flags);
    });
  relay
    .command('status')
    .description('is the relay reachable, with JetStream and every bucket present; clock skew')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await runStatus(createOutput(!!flags.json));
    });
  relay
    .command('disconnect')
    .description('forget the relay configuration (what is on the relay stays; see relay purge)')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const removed = await deleteRelayConfig(resolveDataDir());
      out.result('relay disconnect', { removed }, () => (removed ? 'The relay configuration is removed; handoffs stay on this machine.' : 'No relay was configured.'));
      process.exitCode = EXIT.ok;
    });
  relay
    .command('claim <session-id>')
    .description('take the baton of a relayed session on the relay (compare-and-set; CONFLICT names the holder)')
    .option('--json', 'print one versioned JSON object')
    .action(async (sessionId: string, flags: { json?: boolean }) => {
      const { runClaim } = await import('./relay-claim.js');
      process.exitCode = await runClaim(createOutput(!!flags.json), sessionId);
    });
  relay
    .command('purge')
    .description('delete everything of this device from the relay, and report what was removed')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      const { runPurge } = await import('./relay-purge.js');
      process.exitCode = await runPurge(createOutput(!!flags.json));
    });
}

async function runConnect(url: string, flags: ConnectFlags): Promise<number> {
  const out = createOutput(!!flags.json);
  const checked = checkRelayUrl(url);
  if (!checked.ok) {
    out.problem('relay connect', 'BAD_ARGUMENT', checked.message);
    return EXIT.usage;
  }
  if (flags.token && flags.creds) {
    out.problem('relay connect', 'BAD_ARGUMENT', 'Use either --token or --creds, not both.');
    return EXIT.usage;
  }
  const config: RelayConfig = {
    version: 1,
    url,
    ...(flags.token ? { token: flags.token } : {}),
    ...(flags.creds ? { credsPath: flags.creds } : {}),
    ...(flags.tlsCa ? { tlsCaPath: flags.tlsCa } : {}),
    connectedAt: new Date().toISOString(),
  };
  try {
    const relay = await connectRelay(config);
    try {
      const created = await ensureRelayResources(relay);
      await writeRelayConfig(resolveDataDir(), config);
      out.result('relay connect', { url, created }, () => `Connected to ${url}${created.length ? `; created ${created.join(', ')}` : ''}. Handoffs can now go to paired devices (baton device pair).`);
      return EXIT.ok;
    } finally {
      await relay.close();
    }
  } catch (error) {
    return relayProblem(out, 'relay connect', error);
  }
}

async function runStatus(out: Output): Promise<number> {
  const config = await readRelayConfig(resolveDataDir()).catch((e: Error) => e);
  if (config instanceof Error) return relayProblem(out, 'relay status', config);
  if (!config) {
    out.result('relay status', { configured: false }, () => 'No relay is configured: everything stays on this machine. Connect one with baton relay connect nats://HOST:PORT');
    return EXIT.ok;
  }
  const health = await checkRelayHealth(config);
  const dropped = await readDrops();
  const healthy = health.reachable && health.jetstream && health.missing.length === 0;
  if (!healthy) {
    out.problem('relay status', 'RELAY_UNHEALTHY', health.message, { configured: true, ...health, dropped });
    return EXIT.failure;
  }
  const drops = Object.entries(dropped).map(([reason, n]) => `${reason} ${n}`);
  out.result('relay status', { configured: true, ...health, dropped }, () =>
    [
      `Relay ${health.url}: ${health.message}`,
      `round trip ${health.rttMs} ms, clock skew ${health.clockSkewMs ?? 'unknown'} ms`,
      `incoming handoffs dropped: ${drops.length ? drops.join(', ') : 'none'}`,
    ].join('\n'),
  );
  return EXIT.ok;
}

/** Incoming handoffs this device dropped, by reason (the inbox's events in the local store). */
async function readDrops(): Promise<Record<string, number>> {
  const { store } = await openCliStore();
  try {
    return await readInboxDrops(store);
  } finally {
    await store.close();
  }
}

/** One formatter for relay failures: the error's code when it has one. */
export function relayProblem(out: Output, command: string, error: unknown): number {
  const code = error instanceof RelayError ? error.code : ((error as { code?: string }).code ?? 'ERROR');
  out.problem(command, code, (error as Error).message);
  return EXIT.failure;
}

/**
 * Opens this device's relay connection (identity + relay), runs `work`, and closes it whatever
 * happens; failing to open, or an error `work` does not handle, is `command`'s problem line.
 */
export async function withDeviceRelay(
  out: Output,
  command: string,
  work: (opened: Awaited<ReturnType<typeof openDeviceRelay>>, dataDir: string) => Promise<number>,
): Promise<number> {
  const dataDir = resolveDataDir();
  let opened;
  try {
    opened = await openDeviceRelay(dataDir);
  } catch (error) {
    return relayProblem(out, command, error);
  }
  try {
    return await work(opened, dataDir);
  } catch (error) {
    return relayProblem(out, command, error);
  } finally {
    await opened.relay.close();
  }
}
