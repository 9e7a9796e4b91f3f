import { runGit } from './git.js';

/** True when `commit` is a commit in the repository at `root` (e.g. the handed-off HEAD was fetched). */
export async function commitExists(root: string, commit: string): Promise<boolean> {
  const args = commitExistsArgs(commit);
  return args !== null && (await runGit(root, args)).code === 0;
}

/** The git command whose exit code 0 says `commit` is a commit here; null for anything but a full object id. */
export function commitExistsArgs(commit: string): string[] | null {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit) ? ['cat-file', '-e', `${commit}^{commit}`] : null;
}

/**
 * The bytes of `commit:path` for each path (null when the commit has no such blob), read with one
 * `git cat-file --batch` for all of them. A path holding a newline cannot travel in the batch
 * protocol and is read on its own.
 */
export async function readBlobs(root: string, commit: string, paths: readonly string[]): Promise<Map<string, Buffer | null>> {
  const out = new Map<string, Buffer | null>();
  const batchable = paths.filter((p) => !p.includes('\n'));
  for (const path of paths.filter((p) => p.includes('\n'))) {
    const single = await runGit(root, ['cat-file', 'blob', `${commit}:${path}`]);
    out.set(path, single.code === 0 ? single.stdout : null);
  }
  if (batchable.length === 0) return out;
  const input = Buffer.from(batchable.map((p) => `${commit}:${p}\n`).join(''), 'utf8');
  const result = await runGit(root, ['cat-file', '--batch'], input);
  const data = result.stdout;
  let at = 0;
  for (const path of batchable) {
    const eol = data.indexOf(0x0a, at);
    if (eol < 0) {
      out.set(path, null);
      continue;
    }
    const header = data.subarray(at, eol).toString('utf8');
    at = eol + 1;
    const match = / (blob|tree|commit|tag) (\d+)$/.exec(header);
    if (!match) {
      out.set(path, null); // "<name> missing" or "ambiguous"
      continue;
    }
    const size = Number(match[2]);
    out.set(path, match[1] === 'blob' ? Buffer.from(data.subarray(at, at + size)) : null);
    at += size + 1; // the content is followed by a newline
  }
  return out;
}
