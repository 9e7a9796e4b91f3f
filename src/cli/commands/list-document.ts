import { itemOfRow, type ListGroup } from '../../core/importers/candidate-list.js';
import type { IndexRow } from '../../shared/session.js';

/**
 * A listing as `baton list` and the resume picker show it. Apart from list-groups.ts (the local
 * scan) so the picker's first screen from a running host does not load the store and the scanner.
 */
export interface Listing {
  groups: ListGroup[];
  /** Sessions that matched, before the limit. */
  total: number;
  notes: string[];
  agentScan: { files: number; ms: number } | null;
}

/** The host's `baton list --json` document, back as groups. */
export function groupsOfDocument(text: string): Listing {
  const doc = JSON.parse(text) as { groups: Array<{ cwd: string; newestAt: number; sessions: IndexRow[] }>; total: number; notes: string[] };
  const groups = doc.groups.map((g) => ({ cwd: g.cwd, newestAt: g.newestAt, items: g.sessions.map(itemOfRow) }));
  return { groups, total: doc.total, notes: doc.notes, agentScan: null };
}
