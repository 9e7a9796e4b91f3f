import { redactValue } from '../redact/redact-value.js';
import type { SessionDigest } from './digest.js';
import type { FileState } from './summarize-file.js';

/**
 * What a scan read for the first time is redacted before it is cached or shown (a title is the
 * first prompt, and a prompt may hold a key). Only the text taken from the log goes to the
 * detector: the state's hashes (lastKey, checkHash, fingerprint) and its time (isoOf's
 * toISOString form) are Baton's own. They were more than half of the text the detector scanned in
 * a cold listing (the fingerprint alone 64 characters a file), and a marker in one would
 * break the state's identity (the fingerprint names the state `baton handoff --from` recognises).
 *
 * The same states come back (the same objects) when nothing was found, as redactValue's.
 */
export async function redactStates(states: readonly FileState[]): Promise<FileState[]> {
  const logText = states.map(({ digest }): SessionDigest => ({ ...digest, updatedAt: null, lastKey: null }));
  const { value } = await redactValue(logText);
  return states.map((state, k) => {
    const redacted = value[k]!;
    if (redacted === logText[k]) return state;
    // Spread in place, so the keys keep their order (the digest cache's JSON is the same bytes).
    return { ...state, digest: { ...redacted, updatedAt: state.digest.updatedAt, lastKey: state.digest.lastKey } };
  });
}
