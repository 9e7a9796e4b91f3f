import { join } from 'node:path';
import type { DurableFs, FileStat } from '../fs/durable-fs.js';
import { StoreError, errnoOf, fromFsError } from './errors.js';
import { DIR_MODE, FILE_MODE } from './layout.js';

/**
 * Checked when the store opens: the root and its top-level entries must be real directories and
 * files (no symlinks) owned by this user; modes wider than 0700/0600 are narrowed. POSIX only:
 * Windows has no uid or mode bits to check (the data dir is per-user already).
 */
export async function checkOwnedPath(fs: DurableFs, path: string, kind: 'dir' | 'file'): Promise<FileStat | undefined> {
  let st: FileStat;
  try {
    st = await fs.lstat(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw fromFsError(error, path, 'checking store permissions');
  }
  if (st.isSymbolicLink) throw new StoreError('UNSAFE_STORE', `${path} is a symbolic link; Baton refuses to store sessions through a link. Point BATON_HOME at the real directory.`, path);
  if (kind === 'dir' ? !st.isDirectory : !st.isFile) throw new StoreError('UNSAFE_STORE', `${path} should be a ${kind === 'dir' ? 'directory' : 'regular file'}.`, path);
  if (process.platform === 'win32') return st;
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) throw new StoreError('UNSAFE_STORE', `${path} belongs to uid ${st.uid}, not to this user (uid ${uid}); another user could read or change your sessions.`, path);
  const wanted = kind === 'dir' ? DIR_MODE : FILE_MODE;
  if ((st.mode & 0o777 & ~wanted) !== 0) await fs.chmod(path, wanted).catch((error: unknown) => {
    throw fromFsError(error, path, 'narrowing permissions');
  });
  return st;
}

export async function checkStoreTree(fs: DurableFs, root: string, dirs: string[], files: string[]): Promise<void> {
  await checkOwnedPath(fs, root, 'dir');
  for (const d of dirs) await checkOwnedPath(fs, join(root, d), 'dir');
  for (const f of files) await checkOwnedPath(fs, join(root, f), 'file');
}
