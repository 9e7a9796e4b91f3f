import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type LaunchResult = { launched: true; command: string } | { launched: false; reason: string };

/**
 * Opens a baton:// link with the OS launcher, never through a shell: the URL is one argument,
 * so nothing in it is split on `&` or interpreted.
 *   Linux: xdg-open, only when there is a display to open an app on.
 *   macOS: open.
 *   Windows: rundll32 url.dll,FileProtocolHandler (not `start`, which needs cmd.exe).
 */
export async function launchUrl(url: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): Promise<LaunchResult> {
  const plan = launcherFor(platform, env);
  if ('reason' in plan) return { launched: false, reason: plan.reason };
  return new Promise((resolve) => {
    const child = spawn(plan.command, [...plan.args, url], { stdio: 'ignore', detached: true, windowsHide: true });
    child.once('error', (error) => resolve({ launched: false, reason: `${plan.command} failed: ${error.message}` }));
    child.once('spawn', () => {
      child.unref();
      resolve({ launched: true, command: plan.command });
    });
  });
}

function launcherFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] } | { reason: string } {
  if (platform === 'darwin') return { command: 'open', args: [] };
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  if (!onPath('xdg-open', env)) return { reason: 'xdg-open is not installed' };
  return { command: 'xdg-open', args: [] };
}

export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}
