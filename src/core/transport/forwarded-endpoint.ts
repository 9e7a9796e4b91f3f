import { existsSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveEndpoint } from './endpoint.js';
import type { EndpointInfo } from './types.js';

/**
 * The desktop's endpoint as a remote box sees it through `baton ssh` (issue 22): a private 0700
 * directory on the remote holding `sock` (the laptop's socket, forwarded by `ssh -R`) and `token`
 * (the one-time credential, 0600). `baton ssh` names the directory in this variable for the shell
 * it opens; every CLI command that talks to the desktop (handoff, approve, task) then uses it.
 * A process that did not inherit the variable (a tmux started earlier, an agent's hook) finds the
 * newest live forward through the well-known link ~/.baton-ssh/current, but only when this box
 * has no desktop of its own listening.
 */
export const SSH_ENDPOINT_ENV = 'BATON_SSH_ENDPOINT';
export const FORWARDED_SOCKET_NAME = 'sock';
export const FORWARDED_TOKEN_NAME = 'token';
/** Under the remote user's HOME: one private directory per `baton ssh` session, and `current`. */
export const REMOTE_BASE_DIR = '.baton-ssh';
export const CURRENT_LINK = 'current';

/** The forwarded endpoint when the variable names an absolute directory, else null (a local endpoint). */
export function forwardedEndpoint(env: NodeJS.ProcessEnv = process.env): EndpointInfo | null {
  const dir = env[SSH_ENDPOINT_ENV];
  if (!dir || !path.isAbsolute(dir)) return null;
  return endpointIn(dir);
}

function endpointIn(dir: string): EndpointInfo {
  return { dir, address: path.join(dir, FORWARDED_SOCKET_NAME), tokenPath: path.join(dir, FORWARDED_TOKEN_NAME) };
}

/** The forward ~/.baton-ssh/current points at, when its socket is there (resolved: the link itself is not the directory). */
export function wellKnownForward(home: string = os.homedir()): EndpointInfo | null {
  try {
    const dir = realpathSync(path.join(home, REMOTE_BASE_DIR, CURRENT_LINK));
    return existsSync(path.join(dir, FORWARDED_SOCKET_NAME)) ? endpointIn(dir) : null;
  } catch {
    return null;
  }
}

export interface DesktopEndpoint {
  endpoint: EndpointInfo;
  /** The laptop's desktop through `baton ssh`: the session's content must travel, paths are resolved here first. */
  forwarded: boolean;
}

/** The endpoint a CLI command talks to: the forwarded one inside (or beside) a `baton ssh` shell, else this machine's. */
export function desktopEndpoint(dataDir: string, env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): DesktopEndpoint {
  const named = forwardedEndpoint(env);
  if (named) return { endpoint: named, forwarded: true };
  const local = resolveEndpoint(dataDir, env);
  if (process.platform !== 'win32' && !existsSync(local.address)) {
    const current = wellKnownForward(home);
    if (current) return { endpoint: current, forwarded: true };
  }
  return { endpoint: local, forwarded: false };
}
