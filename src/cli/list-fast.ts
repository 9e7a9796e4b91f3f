/**
 * `baton list --json` when a host runs, without loading the whole CLI: bin/baton.js tries this
 * small bundle (dist/cli/baton-list.cjs) first. The full CLI's start-up (every command, the
 * policy grammar, zod schemas) costs more than the listing itself; this path costs one socket
 * round trip. Anything it does not handle (other flags, no host) returns false and the full CLI
 * runs as usual, so behaviour never depends on which path answered.
 */
import { existsSync } from 'node:fs';
import { cwdFilterOf } from '../core/importers/candidate-list.js';
import { resolveDataDir } from '../core/paths.js';
import { resolveEndpoint } from '../core/transport/endpoint.js';

const SOURCES = new Set(['claude', 'codex', 'baton']);
const STDOUT_FD = 1;

export async function tryFastList(argv: readonly string[]): Promise<boolean> {
  const args = argv.slice(2);
  if (args[0] !== 'list') return false;
  let json = false;
  let agents = true;
  let limit: number | undefined;
  let cwd: string | undefined;
  let source: string | undefined;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i];
    if (flag === '--json') json = true;
    else if (flag === '--no-agents') agents = false;
    else if (flag === '--limit') {
      const v = value();
      if (v === undefined || !/^\d+$/.test(v)) return false; // the full CLI reports the error
      limit = Number(v);
    } else if (flag === '--cwd') {
      const v = value();
      if (v === undefined) return false;
      cwd = cwdFilterOf(v);
    } else if (flag === '--source') {
      const v = value();
      if (v === undefined || !SOURCES.has(v)) return false;
      source = v;
    } else return false;
  }
  if (!json) return false;
  // No socket, no host: decline before loading the client (its wire schemas cost more than this check).
  if (process.platform !== 'win32' && !existsSync(resolveEndpoint(resolveDataDir()).address)) return false;
  const { printHostListingToFd } = await import('./commands/list-host.js');
  // fd 1 with synchronous writes: the launcher exits as soon as this resolves, and
  // process.stdout's stream is never built.
  return printHostListingToFd({ agents, filter: { cwd, source }, limit }, STDOUT_FD);
}

/**
 * No host answered: the list bundle (or `baton resume`'s) opens the store itself. bin/baton.js
 * calls this before it compiles that bundle, so an encrypted store's keychain read runs during the
 * compile (issue 17); it resolves once the read's calls are on the bus (key-store.ts).
 * The key store's module is initialised here only, not on the hosted path.
 */
export async function startStoreKeyReads(): Promise<void> {
  const { startKeychainReads } = await import('../core/store/at-rest/key-store.js');
  await startKeychainReads(resolveDataDir());
}

/**
 * The build's warm-up only (scripts/build-cli.js, warmFastList): the keychain read of the
 * encrypted store at BATON_HOME, on a scratch Secret Service, run to its answer, so the fast-list
 * bundle's code cache holds the bus client compiled. Without it an encrypted `baton resume` or
 * `baton list` without a host compiled it lazily before its first screen (bench/README.md, issue
 * 17). Whether a key came back.
 */
export async function warmStoreKeyRead(): Promise<boolean> {
  await startStoreKeyReads();
  const { keychainReadsAnswered } = await import('../core/store/at-rest/key-store.js');
  return (await keychainReadsAnswered()) > 0;
}
