import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * Whether `command` is an executable on $PATH. The installed /handoff line and the approval hook
 * run `baton` by name, so install warns when the shell Claude Code starts would not find it.
 */
export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const names = process.platform === 'win32' ? [`${command}.cmd`, `${command}.exe`, command] : [command];
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return true;
      } catch {
        // not here; try the next directory
      }
    }
  }
  return false;
}
