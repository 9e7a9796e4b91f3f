import type { Manifest } from '../../shared/manifest.js';
import type { FullOutput, MessageRecord } from '../../shared/message.js';
import type { SessionStore } from '../store/types.js';
import type { FieldMismatch } from '../handoff/verify-offer.js';

/** Refs named in a mismatch at most (the rest are counted). */
const MISMATCH_REFS_MAX = 20;

/**
 * The context fields checked at the target (design article §6, consistency verification): the
 * summary artifact against its hash, every anchor against the log, and every trimmed tool output's
 * full text against the hash its record carries. Counts and the message and tool-call hashes are
 * checked beside this (verify-offer.ts). Returns every field that differs.
 */
export async function verifyContext(
  store: SessionStore,
  manifest: Manifest,
  records: readonly MessageRecord[],
  /** anchorsInLog: the log's bytes matched the sender's hash, whose records hold the anchors; `records` are then only those that name full outputs. */
  options: { anchorsInLog?: boolean; fullOutputs?: readonly FullOutput[] | readonly { ref: string; sha256: string }[] } = {},
): Promise<FieldMismatch[]> {
  const mismatches: FieldMismatch[] = [];
  const { context } = manifest;
  const sessionId = manifest.session_id;

  if (context.compacted_summary_ref !== null) {
    const expected = context.compacted_summary_sha256 ?? null;
    if (expected === null) {
      mismatches.push({ field: 'context.compacted_summary_sha256', expected: 'a sha256 for the summary', actual: null });
    } else {
      const problem = await store.readArtifact(sessionId, context.compacted_summary_ref, expected).then(
        () => null,
        (error: Error) => error.message,
      );
      if (problem) mismatches.push({ field: 'context.compacted_summary_sha256', expected, actual: problem });
    }
  }

  const ids = new Set(records.map((r) => r.id));
  const lost = options.anchorsInLog ? [] : context.anchor_message_ids.filter((id) => !ids.has(id));
  if (lost.length > 0) mismatches.push({ field: 'context.anchor_message_ids', expected: 'every anchor in the log', actual: { missing: lost.slice(0, MISMATCH_REFS_MAX), count: lost.length } });

  const bad: string[] = [];
  let badCount = 0;
  // fullOutputs: the manifest's list, when the log was checked as stored (ciphertext: no records read).
  for (const output of options.fullOutputs ?? fullOutputsOf(records)) {
    const problem = await store.readArtifact(sessionId, output.ref, output.sha256).then(
      () => null,
      (error: Error) => error.message,
    );
    if (problem === null) continue;
    badCount++;
    if (bad.length < MISMATCH_REFS_MAX) bad.push(`${output.ref}: ${problem}`);
  }
  if (badCount > 0) mismatches.push({ field: 'context.full_outputs', expected: 'every trimmed output readable with its hash', actual: { problems: bad, count: badCount } });
  return mismatches;
}

/** Every full-output reference the records carry, once per artifact. */
export function fullOutputsOf(records: readonly MessageRecord[]): FullOutput[] {
  const seen = new Map<string, FullOutput>();
  for (const record of records) {
    if (record.fullOutput) seen.set(record.fullOutput.ref, record.fullOutput);
    for (const call of record.toolCalls ?? []) if (call.fullOutput) seen.set(call.fullOutput.ref, call.fullOutput);
  }
  return [...seen.values()];
}
