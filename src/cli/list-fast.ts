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

