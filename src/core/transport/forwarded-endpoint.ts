import path from 'node:path';
import { resolveEndpoint } from './endpoint.js';
import type { EndpointInfo } from './types.js';

/**
 * The desktop's endpoint as a remote box sees it through `baton ssh` (issue 22): a private 0700
 * directory on the remote holding `sock` (the laptop's socket, forwarded by `ssh -R`) and `token`
 * (the one-time credential, 0600). `baton ssh` names the directory in this variable for the shell
 * it opens; every CLI command that talks to the desktop (handoff, approve, task) then uses it.
 */
export const SSH_ENDPOINT_ENV = 'BATON_SSH_ENDPOINT';
export const FORWARDED_SOCKET_NAME = 'sock';
export const FORWARDED_TOKEN_NAME = 'token';

/** The forwarded endpoint when the variable names an absolute directory, else null (a local endpoint). */
export function forwardedEndpoint(env: NodeJS.ProcessEnv = process.env): EndpointInfo | null {
  const dir = env[SSH_ENDPOINT_ENV];
  if (!dir || !path.isAbsolute(dir)) return null;
  return { dir, address: path.join(dir, FORWARDED_SOCKET_NAME), tokenPath: path.join(dir, FORWARDED_TOKEN_NAME) };
}

/** The endpoint a CLI command talks to: the forwarded one inside a `baton ssh` shell, else this machine's. */
export function desktopEndpoint(dataDir: string, env: NodeJS.ProcessEnv = process.env): EndpointInfo {
  return forwardedEndpoint(env) ?? resolveEndpoint(dataDir, env);
}
