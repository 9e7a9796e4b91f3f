/**
 * The Host and Origin checks of the browser host (issue 22). Through `ssh -L 9000:127.0.0.1:N`
 * the browser says `Host: localhost:9000`, so any port is accepted, but only for the loopback
 * names: a DNS-rebinding page's Host carries the attacker's name, which still fails here.
 */
export const LOOPBACK_HOST_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** The largest TCP port; a Host with a port outside 1..65535 is not a port a browser sends. */
const MAX_PORT = 65_535;

/** True for `name:port` where name is a loopback name (exact, lowercase) and port is 1..65535 in plain digits. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const colon = host.lastIndexOf(':');
  if (colon <= 0) return false;
  const name = host.slice(0, colon);
  const port = host.slice(colon + 1);
  if (!LOOPBACK_HOST_NAMES.includes(name)) return false;
  if (!/^[1-9][0-9]{0,4}$/.test(port)) return false;
  return Number(port) <= MAX_PORT;
}

/** An Origin the browser host accepts: `http://` plus a loopback Host (browsers never send a path or a trailing slash). */
export function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined || !origin.startsWith('http://')) return false;
  return isLoopbackHost(origin.slice('http://'.length));
}
