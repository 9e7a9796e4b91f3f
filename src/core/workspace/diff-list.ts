import type { WorkspaceFileStatus } from '../../shared/workspace.js';

/**
 * Parser for `git diff --raw --numstat -z`: raw records (":old new sha sha S\0path\0[path\0]")
 * come first, then numstat records in the same order ("a\td\tpath\0", or "a\td\t\0old\0new\0"
 * for a rename or copy; "-\t-" marks a binary file).
 */

export interface DiffEntry {
  path: string;
  oldPath?: string;
  status: Exclude<WorkspaceFileStatus, 'untracked'>;
  oldMode: string | null;
  newMode: string | null;
  binary: boolean;
  additions: number | null;
  deletions: number | null;
}

const STATUS_BY_LETTER: Record<string, DiffEntry['status']> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'typechange',
};

const NO_MODE = '000000';

export function parseRawNumstatZ(text: string): DiffEntry[] {
  const tokens = text.split('\0');
  const entries: DiffEntry[] = [];
  let i = 0;
  for (let record = tokens[i]; record?.startsWith(':'); record = tokens[i]) {
    const [oldMode = NO_MODE, newMode = NO_MODE, , , letters = 'M'] = record.slice(1).split(' ');
    const letter = letters.charAt(0);
    const status = STATUS_BY_LETTER[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      entries.push(entry(status, tokens[i + 2] ?? '', tokens[i + 1], oldMode, newMode));
      i += 3;
    } else {
      entries.push(entry(status, tokens[i + 1] ?? '', undefined, oldMode, newMode));
      i += 2;
    }
  }
  for (const target of entries) {
    const record = tokens[i];
    if (record === undefined) break;
    const [added, deleted, rest] = splitNumstat(record);
    target.binary = added === '-' && deleted === '-';
    target.additions = target.binary ? null : Number(added);
    target.deletions = target.binary ? null : Number(deleted);
    i += rest === '' ? 3 : 1; // rename/copy: the two paths follow as their own records
  }
  return entries;
}

function entry(status: DiffEntry['status'], path: string, oldPath: string | undefined, oldMode: string, newMode: string): DiffEntry {
  const result: DiffEntry = {
    path,
    status,
    oldMode: oldMode === NO_MODE ? null : oldMode,
    newMode: newMode === NO_MODE ? null : newMode,
    binary: false,
    additions: null,
    deletions: null,
  };
  if (oldPath !== undefined) result.oldPath = oldPath;
  return result;
}

function splitNumstat(record: string): [string, string, string] {
  const first = record.indexOf('\t');
  const second = record.indexOf('\t', first + 1);
  return [record.slice(0, first), record.slice(first + 1, second), record.slice(second + 1)];
}
