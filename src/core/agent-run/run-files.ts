import { relative, sep } from 'node:path';
import { RUN_FILES_LISTED } from '../../shared/agent-run.js';
import { watchTrees } from '../watch/tree-watcher.js';

/** Folder levels below the session's directory watched during a run. */
export const RUN_WATCH_DEPTH = 6;
/** Folders whose churn is not the agent's work on the project. */
const IGNORED = new Set(['.git', 'node_modules']);

export interface RunFiles {
  close(): Promise<void>;
}

/**
 * Watches the session's directory while a run goes and reports every path changed so far
 * (relative, sorted), so the run and the Changes tab update as the agent edits. A watch that
 * breaks (too many folders) just stops reporting: the run goes on.
 */
export function watchRunFiles(cwd: string, onChange: (paths: string[], more: number) => void): RunFiles {
  const seen = new Set<string>();
  const watch = watchTrees(
    [cwd],
    (paths) => {
      let added = false;
      for (const path of paths) {
        const rel = relative(cwd, path);
        if (rel === '' || rel.startsWith('..') || IGNORED.has(rel.split(sep)[0]!)) continue;
        if (!seen.has(rel)) {
          seen.add(rel);
          added = true;
        }
      }
      if (!added) return;
      const all = [...seen].sort();
      onChange(all.slice(0, RUN_FILES_LISTED), Math.max(0, all.length - RUN_FILES_LISTED));
    },
    { depth: RUN_WATCH_DEPTH, onTrouble: () => undefined },
  );
  return { close: () => watch.close() };
}
