import net from 'node:net';
import { TransportError, errnoOf } from './errors.js';

/** Probing a possibly stale socket: a live owner accepts at once; a dead one refuses at once. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether a server owns `address`: 'live' when it accepts (or never answers), 'stale' when the
 * socket file is gone or refuses (its owner crashed). Other errors reject.
 */
export function probeEndpoint(address: string): Promise<'live' | 'stale'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('live'); // it accepted nothing, but it did not refuse either: do not steal it
    }, PROBE_TIMEOUT_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve('live');
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      const code = errnoOf(error);
      if (code === 'ECONNREFUSED' || code === 'ENOENT') resolve('stale');
      else reject(error);
    });
  });
}

export function alreadyRunning(address: string): TransportError {
  return new TransportError('ALREADY_RUNNING', `another Baton already listens at ${address}; forward the request to it instead`, address);
}

/**
 * Refuses early, with ALREADY_RUNNING, when another host answers at `address`: `baton serve`
 * checks this before it prints its address, so a second host does not announce a URL and then fail.
 * Anything unclear (a Windows pipe, a probe error) is left to startEndpointServer, which decides.
 */
export async function refuseIfHostRuns(address: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (platform === 'win32') return;
  const owner = await probeEndpoint(address).catch(() => 'unknown' as const);
  if (owner === 'live') throw alreadyRunning(address);
}
