import type { Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startBrowserHost, type UiHostServices } from '../../server/browser-host.js';
import { servicesWhenReady } from '../../server/services-when-ready.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';
import { listenEarly } from '../../core/transport/early-endpoint.js';
import { atRestSettingsPresent } from '../../core/store/at-rest/settings-present.js';
import { createOutput, EXIT, type Output } from '../output.js';
import { markPhase } from '../../core/perf/phase-trace.js';

/** How long `baton serve` waits for a graceful stop (UI connections closed, host services flushed) after SIGINT, SIGTERM or SIGHUP. */
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
      /** Closes what listens before the address when the page's server cannot start or the services never took over. */
      let closeEarly = async () => {};
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
        if (settings && locked) {
          // A locked host opens no store: it starts whole before its address, as before.
          const locking = await (await lockableHostModule()).startLockableHost({ ...options, settings });
          token = locking.token;
          // Its receiver and lock screen are up: a page's server that fails to listen must close them,
          // or the process stays alive with nothing printed.
          closeEarly = () => locking.close();
          starting = Promise.resolve(locking);
        } else {
          await ensureEndpointDir(endpoint.dir);
          token = await loadOrCreateToken(endpoint.tokenPath);
          // The receiver holds the endpoint before the address is printed: a second host for this
          // data directory is refused here (ALREADY_RUNNING), and a handoff sent once the address is
          // out is accepted (it waits for the services).
          const early = await listenEarly(endpoint, token);
          closeEarly = () => early.server.close();
          // Started once the address is printed, not awaited: a browser loads the page while the
          // host's modules evaluate, the store opens and the candidates' index is read (issue 15).
          // (An import started before the listen would evaluate them in the listen's wait.)
          starting = announced.then(() => hostServicesModule()).then(({ startHostServices }) => startHostServices({ ...options, early }));
        }
      } catch (error) {
        reportStartFailure(out, error);
        return;
      }
      let host: Awaited<ReturnType<typeof startBrowserHost>>;
      try {
        host = await startBrowserHost({ services: servicesWhenReady(token, starting), port });
      } catch (error) {
        await closeEarly();
        reportStartFailure(out, error);
        return;
      }
      // Once announced, a start that fails (the store refused to open, say): the page's address and the endpoint
      // are withdrawn and the reason reported, as a start that failed before the address. Once,
      // whether the failure or a Ctrl+C during it gets here first.
      let withdrawing: Promise<void> | undefined;
      const withdraw = (error: unknown) =>
        (withdrawing ??= (async () => {
          await host.close();
          await closeEarly();
          reportStartFailure(out, error);
        })());
      const stop = async () => {
        // Everything acknowledged is already on disk; a close that hangs (a client holding a
        // connection, a flush stuck on a device) must not keep the process alive forever.
        setTimeout(() => {
          console.error(`baton serve: stopping took longer than ${SERVE_STOP_DEADLINE_MS / 1000} s; exiting now`);
          process.exit(EXIT.failure);
        }, SERVE_STOP_DEADLINE_MS).unref();
        await host.close();
        // A stop during a start that fails exits with the failure's code, not 0.
        const code = await starting.then(
          (services) => services.close().then(() => EXIT.ok),
          (error: unknown) => withdraw(error).then(() => EXIT.failure),
        );
        process.exit(code);
      };
      // Before the address: a supervisor that stops the host as soon as it reads the line must not
      // meet the default signal action (killed, the endpoint's socket file left behind).
      // SIGHUP too: the terminal it runs in closed. Killed instead, it left an encrypted store's
      // listings in the clear in the runtime directory until the next host (listing-place.ts).
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop());
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
      try {
        await starting;
      } catch (error) {
        await withdraw(error);
        return;
      }
      markPhase('serve-services');
    });
}
