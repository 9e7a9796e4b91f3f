/**
 * Parser for `git status --porcelain=v2 --branch -z --untracked-files=all`: branch headers and,
 * per changed path, whether the change is staged, unstaged or untracked. Porcelain v2 is used
 * because it is stable across git versions and marks submodules explicitly.
 */

export interface StatusEntry {
  path: string;
  /** Source of a staged rename or copy. */
  origPath?: string;
  /** Index vs HEAD ('.' = unchanged) and working tree vs index. */
  x: string;
  y: string;
  untracked: boolean;
  /** The entry is a submodule (listed, never descended). */
  submodule: boolean;
  /** An unmerged path (a 'u' record: a merge or rebase stopped on it). */
  unmerged?: true;
}

export interface StatusReport {
  /** null on an unborn branch ("(initial)"). */
  oid: string | null;
  /** null when detached. */
  branch: string | null;
  detached: boolean;
  upstream: string | null;
  entries: StatusEntry[];
}

/** Splits off `count` space-separated fields; the rest (which may hold spaces) is the path. */
function fields(record: string, count: number): { parts: string[]; rest: string } {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const next = record.indexOf(' ', at);
    if (next < 0) return { parts, rest: '' };
    parts.push(record.slice(at, next));
    at = next + 1;
  }
  return { parts, rest: record.slice(at) };
}

/** parts[1] is "XY", parts[2] the submodule field ("N..." or "S<c><m><u>"). */
function trackedEntry(parts: string[], path: string): StatusEntry {
  const xy = parts[1] ?? '..';
  return { path, x: xy[0] ?? '.', y: xy[1] ?? '.', untracked: false, submodule: (parts[2] ?? 'N').startsWith('S') };
}

export function parseStatusV2(text: string): StatusReport {
  const report: StatusReport = { oid: null, branch: null, detached: false, upstream: null, entries: [] };
  const records = text.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    if (!record) continue;
    const kind = record[0];
    if (kind === '#') {
      const { parts, rest } = fields(record, 2);
      const key = parts[1];
      if (key === 'branch.oid') report.oid = rest === '(initial)' ? null : rest;
      else if (key === 'branch.head') {
        report.detached = rest === '(detached)';
        report.branch = report.detached ? null : rest;
      } else if (key === 'branch.upstream') report.upstream = rest;
      continue;
    }
    if (kind === '1') {
      const { parts, rest } = fields(record, 8);
      report.entries.push(trackedEntry(parts, rest));
    } else if (kind === '2') {
      const { parts, rest } = fields(record, 9);
      report.entries.push({ ...trackedEntry(parts, rest), origPath: records[++i] ?? '' });
    } else if (kind === 'u') {
      const { parts, rest } = fields(record, 10);
      report.entries.push({ ...trackedEntry(parts, rest), unmerged: true });
    } else if (kind === '?') {
      report.entries.push({ path: record.slice(2), x: '?', y: '?', untracked: true, submodule: false });
    }
    // '!' (ignored) never reaches us: we do not ask for ignored files.
  }
  return report;
}

export const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=none'];
