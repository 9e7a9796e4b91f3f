import type { WorkspaceFile, WorkspaceFileStatus } from '../../../../shared/workspace';

/** One letter per status, as `git status --short` spells it, so developers read it at a glance. */
export const STATUS_LETTER: Record<WorkspaceFileStatus, string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  copied: 'C',
  typechange: 'T',
  untracked: 'U',
};

export const STATUS_LABEL: Record<WorkspaceFileStatus, string> = {
  modified: 'Modified',
  added: 'Added',
  deleted: 'Deleted',
  renamed: 'Renamed',
  copied: 'Copied',
  typechange: 'Type changed',
  untracked: 'Untracked',
};

/** The order status counts are shown in (most common first). */
export const STATUS_ORDER: readonly WorkspaceFileStatus[] = ['modified', 'added', 'untracked', 'deleted', 'renamed', 'copied', 'typechange'];

/**
 * Files whose path (or old path, for a rename) contains every word of the query, case-insensitive.
 * Words let "src test" find src/foo/bar.test.ts without a glob syntax to learn.
 */
export function filterFiles(files: readonly WorkspaceFile[], query: string): WorkspaceFile[] {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 0) return [...files];
  return files.filter((file) => {
    const haystack = `${file.path}\n${file.oldPath ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/** How many files of each status, in STATUS_ORDER, leaving out statuses with none. */
export function countByStatus(files: readonly WorkspaceFile[]): Array<{ status: WorkspaceFileStatus; count: number }> {
  const counts = new Map<WorkspaceFileStatus, number>();
  for (const file of files) counts.set(file.status, (counts.get(file.status) ?? 0) + 1);
  return STATUS_ORDER.filter((status) => counts.has(status)).map((status) => ({ status, count: counts.get(status) ?? 0 }));
}

/** The file after (step 1) or before (step -1) `current` in `files`, wrapping around; the first when none is open. */
export function stepFile(files: readonly WorkspaceFile[], current: string | null, step: 1 | -1): string | null {
  if (files.length === 0) return null;
  const index = current === null ? -1 : files.findIndex((file) => file.path === current);
  if (index === -1) return files[step === 1 ? 0 : files.length - 1]!.path;
  return files[(index + step + files.length) % files.length]!.path;
}

/** Splits a path into its directory (with the trailing slash) and its name, for a two-tone display. */
export function splitPath(path: string): { dir: string; name: string } {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { dir: '', name: path } : { dir: path.slice(0, slash + 1), name: path.slice(slash + 1) };
}
