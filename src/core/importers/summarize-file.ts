import { sha256Hex } from '../hash.js';
import { feedDigest, messagesOf, newDigest, settleDigest, type SessionDigest } from './digest.js';
import { sourceFingerprint } from './fingerprint.js';
import { forEachLine, splitLines, type LogLine } from './lines.js';
import {
  APPEND_CHECK_BYTES,
  APPEND_CONTINUE_MAX_BYTES,
  EXTEND_INITIAL_BYTES,
  HEAD_INITIAL_BYTES,
  HEAD_MAX_BYTES,
  MIDDLE_SAMPLE_BYTES,
  MIDDLE_SAMPLES,
  RECENT_RESPONSE_IDS_KEPT,
  TAIL_INITIAL_BYTES,
  TAIL_MAX_BYTES,
  WHOLE_READ_MAX_BYTES,
} from './limits.js';
import type { ImportHandle, ImportReader } from './reader.js';
import type { AgentSource } from './types.js';

/** What the scan remembers about a file between runs (the cache value). */
export interface FileState {
  size: number;
  mtimeMs: number;
  digest: SessionDigest;
  /** sha256 of the APPEND_CHECK_BYTES before digest.endOffset: proves the file was only appended to. */
  checkHash: string;
  /** True when every line of the file was fed (exact counts). */
  exact: boolean;
  /** sourceFingerprint of this state, kept so a warm rescan hashes nothing. */
  fingerprint: string;
}

export interface SummarizeResult {
  state: FileState;
  /** How the file was read: 'whole', 'head+tail', or 'append' (continued from the cache). */
  mode: 'whole' | 'head+tail' | 'append';
}

/**
 * Digests one log with bounded reads: a small file whole; a large one as a growing head (until
 * the first prompt) plus a tail (the latest state) with the middle estimated; a file that only
 * grew since `previous` from the cached offset. Never reads the whole of a large file.
 */
export async function summarizeFile(
  reader: ImportReader,
  source: AgentSource,
  path: string,
  stat: { size: number; mtimeMs: number },
  previous?: FileState,
  prefix?: Buffer,
): Promise<SummarizeResult> {
  // A small new file whose bytes the scan already read (reader.readPrefixes): nothing to open.
  if (!previous && prefix && stat.size <= WHOLE_READ_MAX_BYTES && prefix.length === stat.size) {
    const digest = newDigest(source);
    feedAll(digest, splitLines(prefix, 0, false, true).lines, new Set());
    return { state: await finish(null, path, stat, digest, true, prefix), mode: 'whole' };
  }
  const handle = await reader.open(path);
  try {
    if (previous && (await canContinue(handle, stat.size, previous))) {
      const digest: SessionDigest = structuredClone(previous.digest);
      await forEachLine(handle, digest.endOffset, stat.size, (line) => feedDigest(digest, line));
      return { state: await finish(handle, path, stat, digest, previous.exact), mode: 'append' };
    }
    const digest = newDigest(source);
    if (stat.size <= WHOLE_READ_MAX_BYTES) {
      const buf = await handle.read(0, stat.size);
      feedAll(digest, splitLines(buf, 0, false, true).lines, new Set());
      return { state: await finish(handle, path, stat, digest, true, buf), mode: 'whole' };
    }
    const headEnd = await readHead(handle, stat.size, digest);
    if (headEnd === null) return { state: await finish(handle, path, stat, digest, true), mode: 'whole' };
    await readTail(handle, stat.size, headEnd, digest);
    return { state: await finish(handle, path, stat, digest, false), mode: 'head+tail' };
  } finally {
    await handle.close();
  }
}

function feedAll(d: SessionDigest, lines: LogLine[], known?: Set<string>): void {
  for (const line of lines) feedDigest(d, line, known);
}

/** `whole`: the file's bytes from offset 0, already read (a whole read): the check bytes are taken from it instead of read again. */
async function checkHashAt(handle: ImportHandle | null, endOffset: number, whole?: Buffer): Promise<string> {
  const from = Math.max(0, endOffset - APPEND_CHECK_BYTES);
  const bytes = endOffset <= 0 ? Buffer.alloc(0) : whole && whole.length >= endOffset ? whole.subarray(from, endOffset) : await handle!.read(from, endOffset - from);
  // A continuity check, not a security boundary: 64 bits keep the cache small.
  return sha256Hex(bytes).slice(0, 16);
}

async function canContinue(handle: ImportHandle, size: number, previous: FileState): Promise<boolean> {
  const end = previous.digest.endOffset;
  if (size < previous.size || end <= 0 || end > size || size - end > APPEND_CONTINUE_MAX_BYTES) return false;
  return (await checkHashAt(handle, end)) === previous.checkHash;
}

/** `handle` may be null only with `whole` (every byte up to the digest's end is in it). */
async function finish(handle: ImportHandle | null, path: string, stat: { size: number; mtimeMs: number }, digest: SessionDigest, exact: boolean, whole?: Buffer): Promise<FileState> {
  settleDigest(digest);
  // Only the last response can continue in appended lines; keep the cache small.
  digest.recentResponseIds = digest.recentResponseIds.slice(-RECENT_RESPONSE_IDS_KEPT);
  const fingerprint = sourceFingerprint(digest.source, path, digest.endOffset, digest.lastKey);
  return { size: stat.size, mtimeMs: stat.mtimeMs, digest, checkHash: await checkHashAt(handle, digest.endOffset, whole), exact, fingerprint };
}

/**
 * Reads from offset 0 in doubling steps until a first prompt is found or HEAD_MAX_BYTES were
 * read. Returns the offset after the last complete line read, or null when the file ended.
 */
async function readHead(handle: ImportHandle, size: number, d: SessionDigest): Promise<number | null> {
  const known = new Set<string>();
  let pos = 0;
  let carry: Buffer = Buffer.alloc(0);
  let want = HEAD_INITIAL_BYTES;
  let restAt = 0;
  for (;;) {
    const chunk = await handle.read(pos, Math.min(want, size - pos));
    pos += chunk.length;
    const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const base = pos - buf.length;
    const atEof = pos >= size || chunk.length === 0;
    const split = splitLines(buf, base, false, atEof);
    feedAll(d, split.lines, known);
    restAt = split.restAt;
    if (atEof) return null;
    carry = buf.subarray(restAt - base);
    if (d.title || pos >= HEAD_MAX_BYTES) return restAt;
    want = Math.min(pos, HEAD_MAX_BYTES - pos);
  }
}

/**
 * Reads the end of the file until it holds one line that parses (or TAIL_MAX_BYTES) and feeds
 * those lines. The messages of the unread middle are estimated from the density of the tail and
 * of one sample from the middle; the head is left out of the density because session starts
 * (snapshots, instructions) are not typical of the body.
 */
async function readTail(handle: ImportHandle, size: number, headEnd: number, d: SessionDigest): Promise<void> {
  const headMessages = messagesOf(d);
  let want = TAIL_INITIAL_BYTES;
  let lines: LogLine[] = [];
  for (;;) {
    const start = Math.max(headEnd, size - want);
    const buf = await handle.read(start, size - start);
    lines = splitLines(buf, start, start > headEnd, true).lines;
    if (lines.some((l) => !l.broken) || start === headEnd || want >= TAIL_MAX_BYTES) break;
    want = Math.min(want * 2, TAIL_MAX_BYTES);
  }
  feedAll(d, lines);
  const first = lines[0];
  if (!first || first.start <= headEnd) return;
  let sampledMessages = messagesOf(d) - headMessages;
  let sampledBytes = size - first.start;
  const middle = first.start - headEnd;
  if (middle > MIDDLE_SAMPLES * MIDDLE_SAMPLE_BYTES * 2) {
    for (let k = 1; k <= MIDDLE_SAMPLES; k++) {
      const at = headEnd + Math.floor((middle * k) / (MIDDLE_SAMPLES + 1));
      sampledMessages += await messagesStartingIn(handle, d.source, at, MIDDLE_SAMPLE_BYTES, first.start);
      sampledBytes += MIDDLE_SAMPLE_BYTES;
    }
  }
  if (sampledBytes > 0) d.estimated = Math.round((sampledMessages / sampledBytes) * middle);
}

/**
 * Messages among the lines that START in [at, at + width): a line that runs past the window is
 * read to its end, so long lines (tool output) are not under-sampled against short ones.
 */
async function messagesStartingIn(handle: ImportHandle, source: SessionDigest['source'], at: number, width: number, limit: number): Promise<number> {
  const buf = await handle.read(at, Math.min(width, limit - at));
  const { lines, restAt } = splitLines(buf, at, true, false);
  const scratch = newDigest(source);
  feedAll(scratch, lines);
  if (restAt < at + width && restAt < limit) {
    let want = EXTEND_INITIAL_BYTES;
    while (want <= TAIL_MAX_BYTES) {
      const more = await handle.read(restAt, Math.min(want, limit - restAt));
      const nl = more.indexOf(0x0a);
      if (nl >= 0) {
        feedAll(scratch, splitLines(more.subarray(0, nl + 1), restAt, false, false).lines);
        break;
      }
      if (restAt + more.length >= limit) break;
      want *= 2;
    }
  }
  return messagesOf(scratch);
}
