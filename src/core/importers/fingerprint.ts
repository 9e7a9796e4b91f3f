import { sha256Hex } from '../hash.js';
import type { AgentSource } from './types.js';

/**
 * Identifies one state of a source log: sha256 of (source, absolute path, offset after the last
 * complete line, key of the last line that parsed). The scan (head + tail) and the full read
 * compute it from the same two facts, so `baton handoff --from` of a session the list showed is
 * recognised as the same state, and a torn write in progress does not change it.
 */
export function sourceFingerprint(source: AgentSource, path: string, endOffset: number, lastKey: string | null): string {
  return sha256Hex(`${source}\0${path}\0${endOffset}\0${lastKey ?? ''}`);
}
