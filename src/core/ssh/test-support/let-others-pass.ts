import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The remote user of the ssh tests runs this checkout's CLI, so every directory above it must let
 * others pass (search, not read): a clone under `mktemp -d` sits in a 0700 directory. Returns what
 * puts the modes back; changes nothing where others may already pass.
 */
export function letOthersPass(dir: string): () => void {
  const changed: Array<[string, number]> = [];
  for (let at = dir; ; at = path.dirname(at)) {
    const mode = statSync(at).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(at, mode | 0o001);
      changed.push([at, mode]);
    }
    if (path.dirname(at) === at) break;
  }
  return () => {
    for (const [at, mode] of changed.splice(0)) chmodSync(at, mode);
  };
}
