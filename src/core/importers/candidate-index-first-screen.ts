import { closeSync, fstatSync, openSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { AGENT_FIRST_PAGE, type AgentCandidate } from '../../shared/agents.js';
import { timeOf } from '../../shared/resume-groups.js';
import { IndexDamagedError, readLayout, SOURCE_CODES, type LayoutSource, type ReadLayout } from './candidate-index-layout.js';
import { fdSource, sealedSource } from './index-file-source.js';
import { sealsFilesAt } from '../store/at-rest/registry.js';
import type { IndexEntry } from './candidate-index.js';

/**
 * The index's first screen (issue 15, sixteenth sitting): the UI's first `agents:list` answer made
 * when the index is written, so a new host answers it from the index's head, arrays and this small
 * section (~150 KB at 200 rows) instead of parsing the columns first (11.5 MB at 20,000 sessions,
 * ~95 ms of one blocking step). Stored as `{"total": candidates, "rows": [[entry, candidate], …]}`:
 * the newest FIRST_SCREEN_ROWS candidates in the host's order (agent-list-page.ts: sort time
 * descending, ties in index order), each with its entry's number in the index so a reader checks
 * every row against the binary columns it already read.
 */
export const FIRST_SCREEN_ROWS = AGENT_FIRST_PAGE;

/** What a new host answers before it reads the rest of the index. */
export interface FirstScreen {
  /** Candidates in the index (the UI's count from its first answer). */
  total: number;
  /** Entries in the index, skipped files included (the answer's `stats.files`). */
  files: number;
  /** The newest min(FIRST_SCREEN_ROWS, total) candidates, newest first. */
  candidates: AgentCandidate[];
}

/** Entry numbers of the `n` first candidates by (sort time descending, entry ascending): a stable sort's first rows. */
function newestFirst(at: ArrayLike<number>, candidates: number, n: number): number[] {
  const order = Array.from({ length: candidates }, (_, i) => i);
  order.sort((a, b) => at[b]! - at[a]! || a - b);
  return order.slice(0, n);
}

/** The section's bytes for entries in listing order (the first `candidates` of them are the candidates). */
export function firstScreenSection(ordered: readonly IndexEntry[], candidates: number, sortTimes: Float64Array): Buffer {
  const rows = newestFirst(sortTimes, candidates, FIRST_SCREEN_ROWS).map((i) => [i, ordered[i]!.candidate()]);
  return Buffer.from(JSON.stringify({ total: candidates, rows }));
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): boolean => v === null || typeof v === 'string';

/** The fields the UI's schema requires, checked here so a damaged row never reaches a page. */
function isCandidate(c: unknown): c is AgentCandidate {
  if (typeof c !== 'object' || c === null) return false;
  const o = c as Record<string, unknown>;
  return (
    (o.source === 'claude' || o.source === 'codex') &&
    isString(o.externalId) &&
    isString(o.path) &&
    isString(o.title) &&
    isNullableString(o.cwd) &&
    isNullableString(o.branch) &&
    isString(o.updatedAt) &&
    Number.isInteger(o.messageCount) &&
    (o.messageCount as number) >= 0 &&
    typeof o.messageCountExact === 'boolean' &&
    isNullableString(o.model) &&
    isNullableString(o.cliVersion) &&
    isString(o.fingerprint) &&
    (o.note === undefined || isString(o.note)) &&
    isString(o.resumeCommand)
  );
}

/**
 * The first screen of a checked layout, its section's bytes given; throws IndexDamagedError when the
 * section disagrees with the head or the arrays in anything: its CRC, its counts, a row's sort time
 * or tool, the rows' order, or a newer candidate left out. The caller then reads the whole index
 * (whose CRC covers this section too: a damaged file is rebuilt by the scan).
 */
export function parseFirstScreen(layout: ReadLayout, bytes: Buffer): FirstScreen {
  const { first, listing } = layout.head;
  if (bytes.length !== first.bytes || crc32(bytes) !== first.crc) throw new IndexDamagedError('the first screen is torn');
  let parsed: { total?: unknown; rows?: unknown };
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as typeof parsed;
  } catch {
    throw new IndexDamagedError('the first screen is not JSON');
  }
  const total = listing.candidates;
  if (parsed?.total !== total) throw new IndexDamagedError(`the first screen counts ${String(parsed?.total)} candidates, the head ${total}`);
  const rows = parsed.rows;
  if (!Array.isArray(rows) || rows.length !== Math.min(FIRST_SCREEN_ROWS, total)) throw new IndexDamagedError('the first screen holds the wrong number of rows');
  const seen = new Uint8Array(total);
  const candidates: AgentCandidate[] = [];
  let lastAt = Infinity;
  let lastEntry = -1;
  for (const row of rows as unknown[]) {
    const [i, c] = Array.isArray(row) ? row : [];
    if (!Number.isInteger(i) || i < 0 || i >= total || seen[i] === 1) throw new IndexDamagedError('a first screen row names no candidate of the index');
    if (!isCandidate(c)) throw new IndexDamagedError('a first screen row is not a candidate');
    const at = layout.at[i]!;
    if (timeOf(c.updatedAt) !== at || SOURCE_CODES[layout.sources[i]!] !== c.source) throw new IndexDamagedError(`first screen row ${i} disagrees with the index`);
    if (!(at < lastAt || (at === lastAt && i > lastEntry))) throw new IndexDamagedError('the first screen rows are out of order');
    seen[i] = 1;
    lastAt = at;
    lastEntry = i;
    candidates.push(c);
  }
  // Nothing newer left out: every other candidate sorts after the last row.
  for (let j = 0; j < total; j++) {
    if (seen[j] === 1) continue;
    const at = layout.at[j]!;
    if (!(at < lastAt || (at === lastAt && j > lastEntry))) throw new IndexDamagedError(`candidate ${j} is newer than the first screen's last row`);
  }
  return { total, files: listing.files, candidates };
}

/** The first screen of an index read through `source`; null when it is not a current, whole index. Throws IndexDamagedError (see parseFirstScreen). */
export function firstScreenOf(source: LayoutSource, version: number): FirstScreen | null {
  const layout = readLayout(source, version);
  if (!layout) return null;
  const bytes = source.read(layout.firstAt, layout.head.first.bytes);
  return parseFirstScreen(layout, bytes);
}

/**
 * Reads an index file's first screen: its prefix, head, arrays and last section (positional reads;
 * an encrypted store's file opens only the pieces holding them). Null when the file is missing,
 * older, torn or damaged in any way: the host then reads the whole index as before.
 */
export function readCandidateFirstScreen(file: string, version: number): FirstScreen | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(fd);
    const source = (sealsFilesAt(file) && sealedSource(file, fd, size)) || fdSource(fd, size);
    return firstScreenOf(source, version);
  } catch {
    return null; // damaged, unreadable, or sealed with another key: the whole read decides
  } finally {
    closeSync(fd);
  }
}
