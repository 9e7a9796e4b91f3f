import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's desktop-file-utils; `.ci/run` installs it, so a missing one is a failure, never a skip. */
export const DESKTOP_FILE_VALIDATE = '/usr/bin/desktop-file-validate';

export function desktopFileValidate(file: string): Promise<{ code: number; output: string }> {
  if (!existsSync(DESKTOP_FILE_VALIDATE)) {
    throw new Error(`${DESKTOP_FILE_VALIDATE} is missing: install Debian's desktop-file-utils (.ci/run does)`);
  }
  return new Promise((resolve) =>
    execFile(DESKTOP_FILE_VALIDATE, [file], (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` })),
  );
}
