import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startBrowserHost, type UiHostServices } from '../../server/browser-host.js';
import { servicesWhenReady } from '../../server/services-when-ready.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';
import { refuseIfHostRuns } from '../../core/transport/endpoint-probe.js';
import { atRestSettingsPresent } from '../../core/store/at-rest/settings-present.js';
import { createOutput, EXIT, type Output } from '../output.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/** How long `baton serve` waits for a graceful stop (UI connections closed, host services flushed) after SIGINT/SIGTERM. */
const SERVE_STOP_DEADLINE_MS = 10_000;

const hostServicesModule = () => import('../../core/host/host-services.js');
const lockableHostModule = () => import('../../core/host/lockable-host.js');

/**
 * Evaluates the modules `baton serve` loads once its address is printed, for the build's code-cache
 * warm-up (scripts/build-cli.js): `--help` no longer reaches them, and a host started without them
 * in the cache compiled them from source (host CPU to the first row +70 ms in one run at load 10).
 */
export async function warmHostModules(): Promise<void> {
  await Promise.all([hostServicesModule(), lockableHostModule(), import('../../shared/ui-contract.js')]);
}

/** What `baton serve` runs behind its page: a plain host's services, or a passphrase store's lockable host. */
type ServeServices = UiHostServices & { close(): Promise<void> };

function reportStartFailure(out: Output, error: unknown): void {
  const code = (error as { code?: string }).code ?? 'ERROR';
  const hint = code === 'ALREADY_RUNNING' ? ' Another Baton host already receives handoffs for this data directory; use that one.' : '';
  out.problem('serve', code, `${(error as Error).message}${hint}`);
  process.exitCode = EXIT.failure;
}

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
      const endpoint = resolveEndpoint(dataDir);
      let token: Buffer;
      let starting: Promise<ServeServices>;
      let locked = false;
      let announce!: () => void;
      const announced = new Promise<void>((resolve) => (announce = resolve));
      try {
        const options = { dataDir, endpoint, kind: 'browser' as const, capabilities: BROWSER_HOST_CAPABILITIES };
        // Passphrase mode: this host is the only holder of the key. On a terminal (or with
        // BATON_PASSPHRASE_FD) it asks before opening the store; otherwise, or with --locked, it
        // starts locked and the UI's unlock screen asks.
        const unlock = atRestSettingsPresent(dataDir) ? await import('../../core/store/at-rest/host-unlock.js') : undefined;
        const settings = await unlock?.passphraseSettings(dataDir);
        locked = settings !== undefined && (flags.locked === true || (!process.stdin.isTTY && !process.env.BATON_PASSPHRASE_FD));
        if (unlock && settings && !locked) {
          const { readPassphrase } = await import('../passphrase-input.js');
          await unlock.unlockHostStore(dataDir, settings, await readPassphrase(`Passphrase for the Baton store ${dataDir}: `));
        }
        // A second host for this data directory is refused before it announces an address.
        await refuseIfHostRuns(endpoint.address);
        await ensureEndpointDir(endpoint.dir);
        token = await loadOrCreateToken(endpoint.tokenPath);
        // Started once the address is printed, not awaited: a browser loads the page while the
        // host's modules evaluate, the store opens and the candidates' index is read (issue 15).
        // (An import started before the listen would evaluate them in the listen's wait.)
        starting = announced.then(() =>
          settings && locked
            ? lockableHostModule().then(({ startLockableHost }) => startLockableHost({ ...options, settings }))
            : hostServicesModule().then(({ startHostServices }) => startHostServices(options)),
        );
      } catch (error) {
        reportStartFailure(out, error);
        return;
      }
      const host = await startBrowserHost({ services: servicesWhenReady(token, starting), port });
      markPhase('serve-listening');
      out.result('serve', { url: host.url, port: host.port, dataDir, endpoint: endpoint.address, ...(locked ? { locked: true } : {}) }, () =>
        [
          `Baton is serving its UI at ${host.url}`,
          `Data: ${dataDir}`,
          ...(locked ? ['Locked: open the UI and enter the store\'s passphrase to unlock it.'] : []),
          `Receiving handoffs on ${endpoint.address}`,
          'Press Ctrl+C to stop.',
        ].join('\n'),
      );
      announce();
      const stop = async () => {
        // Everything acknowledged is already on disk; a close that hangs (a client holding a
        // connection, a flush stuck on a device) must not keep the process alive forever.
        setTimeout(() => {
          console.error(`baton serve: stopping took longer than ${SERVE_STOP_DEADLINE_MS / 1000} s; exiting now`);
          process.exit(EXIT.failure);
        }, SERVE_STOP_DEADLINE_MS).unref();
        await host.close();
        await starting.then((services) => services.close(), () => undefined);
        process.exit(EXIT.ok);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
      try {
        await starting;
      } catch (error) {
        // Announced already (two hosts started at the same instant, or the store refused to open):
        // the page's address is withdrawn and the reason reported, as a start that failed before.
        await host.close();
        reportStartFailure(out, error);
        return;
      }
      markPhase('serve-services');
    });
}
