// For the launcher's tests (scripts/launcher*.test.js): a copy of this build's bin/ and dist/cli
// beside the real node_modules, changed by `alter(cliDir)`, to run bin/baton.js against.
import { cpSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Installs the copy at `parent/name` and returns its folder (its launcher is bin/baton.js in it). */
export function installLauncherCopy(parent, name, alter) {
  const at = join(parent, name);
  cpSync(join(ROOT, 'bin'), join(at, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'cli'), join(at, 'dist', 'cli'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  cpSync(join(ROOT, 'package.json'), join(at, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(at, 'node_modules'));
  alter(join(at, 'dist', 'cli'));
  return at;
}
