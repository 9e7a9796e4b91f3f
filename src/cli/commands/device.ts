import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { fingerprint, loadOrCreateIdentity, publicPart } from '../../core/crypto/identity.js';
import { readPeers, removePeer } from '../../core/crypto/peers.js';
import { joinPairing, PairingError, startPairing } from '../../core/relay/pairing.js';
import { PAIRING_TTL_MS } from '../../core/relay/resources.js';
import { createOutput, EXIT, type Output } from '../output.js';
import { withDeviceRelay } from './relay.js';

/** `baton device …`: this device's identity, pairing with another device, and the paired list. */
export function registerDevice(program: Command): void {
  const device = program.command('device').description('pair this device with another one for handoffs across machines');
  device
    .command('pair')
    .description('print a one-time code (and baton://pair link), then wait for the other device to join')
    .option('--timeout <seconds>', 'how long to wait (at most the code\'s 10 minutes)', String(PAIRING_TTL_MS / 1000))
    .option('--json', 'print JSON lines: the code first, then the paired device')
    .action(async (flags: { timeout: string; json?: boolean }) => {
      process.exitCode = await runPair(createOutput(!!flags.json), Number(flags.timeout));
    });
  device
    .command('join <code>')
    .description('join the device that printed this code')
    .option('--json', 'print one versioned JSON object')
    .action(async (code: string, flags: { json?: boolean }) => {
      process.exitCode = await runJoin(createOutput(!!flags.json), code);
    });
  device
    .command('list')
    .description('this device and the devices it is paired with')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const dataDir = resolveDataDir();
      const me = await loadOrCreateIdentity(dataDir);
      const peers = await readPeers(dataDir);
      const self = { ...publicPart(me), fingerprint: fingerprint(me) };
      out.result('device list', { self, devices: peers }, () =>
        [`This device: ${me.name} (${me.deviceId}) ${self.fingerprint}`, ...(peers.length ? peers.map((p) => `  ${p.name} (${p.deviceId}) ${p.fingerprint}, paired ${p.pairedAt}`) : ['  no paired devices (baton device pair)'])].join('\n'),
      );
      process.exitCode = EXIT.ok;
    });
  device
    .command('remove <name>')
    .description('revoke a paired device: its handoffs are refused from now on')
    .option('--json', 'print one versioned JSON object')
    .action(async (name: string, flags: { json?: boolean }) => {
      const out = createOutput(!!flags.json);
      const removed = await removePeer(resolveDataDir(), name);
      if (!removed.ok) {
        out.problem('device remove', 'NOT_FOUND', removed.message);
        process.exitCode = EXIT.failure;
        return;
      }
      out.result('device remove', { removed: removed.peer }, () => `Removed ${removed.peer.name} (${removed.peer.deviceId}); handoffs from and to it are refused.`);
      process.exitCode = EXIT.ok;
    });
}

async function runPair(out: Output, timeoutSeconds: number): Promise<number> {
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    out.problem('device pair', 'BAD_ARGUMENT', '--timeout must be a positive number of seconds');
    return EXIT.usage;
  }
  return withDeviceRelay(out, 'device pair', async ({ relay, identity }, dataDir) => {
    try {
      const pairing = await startPairing(relay, dataDir, identity);
      const self = { name: identity.name, deviceId: identity.deviceId, fingerprint: fingerprint(identity) };
      out.result('device pair', { phase: 'waiting', code: pairing.code, link: pairing.link, expiresAt: pairing.expiresAt, self }, () =>
        [`On the other device, run:\n  baton device join ${pairing.code}`, `or open ${pairing.link}`, `The code works once, until ${pairing.expiresAt}.`, `This device: ${self.name} ${self.fingerprint}`].join('\n'),
      );
      const cancel = () => void pairing.cancel();
      process.once('SIGINT', cancel);
      const peer = await pairing.wait(timeoutSeconds * 1000).finally(() => process.off('SIGINT', cancel));
      out.result('device pair', { phase: 'paired', device: peer }, () => `Paired with ${peer.name} (${peer.deviceId}).\nIts fingerprint: ${peer.fingerprint}\nCheck that the other device shows this one as ${self.fingerprint}.`);
      return EXIT.ok;
    } catch (error) {
      if (error instanceof PairingError) {
        out.problem('device pair', error.code, error.message);
        return EXIT.failure;
      }
      throw error;
    }
  });
}

async function runJoin(out: Output, code: string): Promise<number> {
  return withDeviceRelay(out, 'device join', async ({ relay, identity }, dataDir) => {
    try {
      const peer = await joinPairing(relay, dataDir, identity, code);
      const self = { name: identity.name, deviceId: identity.deviceId, fingerprint: fingerprint(identity) };
      out.result('device join', { device: peer, self }, () => `Paired with ${peer.name} (${peer.deviceId}).\nIts fingerprint: ${peer.fingerprint}\nThis device: ${self.name} ${self.fingerprint}`);
      return EXIT.ok;
    } catch (error) {
      if (error instanceof PairingError) {
        out.problem('device join', error.code, error.message);
        return error.code === 'BAD_CODE' ? EXIT.usage : EXIT.failure;
      }
      throw error;
    }
  });
}
