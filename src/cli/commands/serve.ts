import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { startHostServices } from '../../core/host/host-services.js';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startBrowserHost, type UiHostServices } from '../../server/browser-host.js';
import { startLockableHost } from '../../core/host/lockable-host.js';
import type { EndpointInfo } from '../../core/transport/types.js';
import { createOutput, EXIT } from '../output.js';
import { readPassphrase } from '../passphrase-input.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/** How long `baton serve` waits for a graceful stop (UI connections closed, host services flushed) after SIGINT/SIGTERM. */
const SERVE_STOP_DEADLINE_MS = 10_000;

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the browser host: the Baton UI on 127.0.0.1 and the handoff receiver')
    .option('--port <port>', 'port on 127.0.0.1 (0: a free one)', '0')
    .option('--json', 'print one versioned JSON object with the URL, then keep serving')
    .option('--locked', 'passphrase store: start locked and unlock from the UI (the default without a terminal or BATON_PASSPHRASE_FD)')
    .action(async (flags: { port: string; json?: boolean; locked?: boolean }) => {
      const out = createOutput(!!flags.json);
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        out.problem('serve', 'BAD_ARGUMENT', `--port must be 0–65535, got "${flags.port}"`);
        process.exitCode = EXIT.usage;
        return;
      }
      const dataDir = resolveDataDir();
      let services: UiHostServices & { endpoint: EndpointInfo; close(): Promise<void> };
      let locked = false;
      try {
        const options = { dataDir, kind: 'browser' as const, capabilities: BROWSER_HOST_CAPABILITIES };
        // Passphrase mode: this host is the only holder of the key. On a terminal (or with
        // BATON_PASSPHRASE_FD) it asks before opening the store; otherwise, or with --locked, it
        // starts locked and the UI's unlock screen asks.
        const { passphraseSettings, unlockHostStore } = await import('../../core/store/at-rest/host-unlock.js');
        const settings = await passphraseSettings(dataDir);
        locked = settings !== undefined && (flags.locked === true || (!process.stdin.isTTY && !process.env.BATON_PASSPHRASE_FD));
        if (settings && locked) {
          services = await startLockableHost({ ...options, settings });
        } else {
          if (settings) await unlockHostStore(dataDir, settings, await readPassphrase(`Passphrase for the Baton store ${dataDir}: `));
          services = await startHostServices(options);
        }
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'ERROR';
        const hint = code === 'ALREADY_RUNNING' ? ' Another Baton host already receives handoffs for this data directory; use that one.' : '';
        out.problem('serve', code, `${(error as Error).message}${hint}`);
        process.exitCode = EXIT.failure;
        return;
      }
      markPhase('serve-services');
      const host = await startBrowserHost({ services, port });
      markPhase('serve-listening');
      out.result('serve', { url: host.url, port: host.port, dataDir, endpoint: services.endpoint.address, ...(locked ? { locked: true } : {}) }, () =>
        [
          `Baton is serving its UI at ${host.url}`,
          `Data: ${dataDir}`,
          ...(locked ? ['Locked: open the UI and enter the store\'s passphrase to unlock it.'] : []),
          `Receiving handoffs on ${services.endpoint.address}`,
          'Press Ctrl+C to stop.',
        ].join('\n'),
      );
      const stop = async () => {
        // Everything acknowledged is already on disk; a close that hangs (a client holding a
        // connection, a flush stuck on a device) must not keep the process alive forever.
        setTimeout(() => {
          console.error(`baton serve: stopping took longer than ${SERVE_STOP_DEADLINE_MS / 1000} s; exiting now`);
          process.exit(EXIT.failure);
        }, SERVE_STOP_DEADLINE_MS).unref();
        await host.close();
        await services.close();
        process.exit(EXIT.ok);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
