import type { MessageRecord } from '../../shared/message.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionContext } from '../../shared/session-fields/context.js';
import { sha256Hex } from '../hash.js';
import { ARTIFACTS_DIR } from '../store/layout.js';
import type { NewArtifact, SessionStore } from '../store/types.js';
import { anchorMessageIds, anchorsOf, type TurnRef } from './anchors.js';
import { emptyState, extend, type ExtractState } from './extract.js';
import { parseSummaryState, renderSummary } from './summary.js';
import { tokensFromUnits, type TokenizerFamily } from './token-estimate.js';

/** Version of the token-estimate method named in the manifest (docs/context-transfer.md). */
export const TOKEN_METHOD_VERSION = 'baton-runs-v1';
/** The number of a session's first summary (artifacts/summary-01.md). */
const FIRST_SUMMARY_NUMBER = 1;
/** Summary numbers tried when a number is taken by a file with other content (a crash between writes). */
const SUMMARY_NUMBER_ATTEMPTS = 5;

/** The manifest's context fields this module fills (ARCHITECTURE.md §5). */
export interface ContextTransfer {
  anchor_message_ids: string[];
  compacted_summary_ref: string | null;
  compacted_summary_sha256: string | null;
  token_estimate: number;
  token_estimate_method: string;
}

/** Claude's tokenizer for Claude Code and Baton sessions, o200k_base for Codex and OpenAI models. */
export function tokenizerFamilyOf(session: Pick<SessionDoc, 'source' | 'model'>): TokenizerFamily {
  if (session.source.tool === 'codex') return 'openai';
  return /^(gpt|o\d|codex|chatgpt)/i.test(session.model?.name ?? '') ? 'openai' : 'claude';
}

/** What a landing kept of the conversation as it wrote it (landing-totals.ts): the whole log read into a state, and its last turns. */
export interface LandedConversation {
  state: ExtractState;
  lastTurns: readonly TurnRef[];
}

/** Anchors and estimate from a state, without writing anything (no summary yet). */
export function contextFromState(state: ExtractState, records: readonly MessageRecord[] | LandedConversation, family: TokenizerFamily): Omit<ContextTransfer, 'compacted_summary_ref' | 'compacted_summary_sha256'> {
  return {
    anchor_message_ids: 'lastTurns' in records ? anchorsOf(state, records.lastTurns) : anchorMessageIds(state, records),
    token_estimate: tokensFromUnits(state.units, family),
    token_estimate_method: `${TOKEN_METHOD_VERSION}/${family}`,
  };
}

/** The manifest's context fields for a caller that writes no artifacts (dry tests, previews). */
export function contextWithoutSummary(session: Pick<SessionDoc, 'source' | 'model'>, records: readonly MessageRecord[]): ContextTransfer {
  const family = tokenizerFamilyOf(session);
  return { ...contextFromState(extend(emptyState(), records), records, family), compacted_summary_ref: null, compacted_summary_sha256: null };
}

/**
 * Produces the context a handoff carries (design article §3.4): extends the session's previous
 * summary with the messages after it (or starts one), writes it as artifacts/summary-NN.md, records
 * it in session.json's `context`, and returns the manifest fields. The full log is never changed.
 */
export async function prepareContext(store: SessionStore, session: SessionDoc, records: readonly MessageRecord[] | LandedConversation): Promise<ContextTransfer> {
  const family = tokenizerFamilyOf(session);
  const lastSeq = 'lastTurns' in records ? records.state.throughSeq : (records[records.length - 1]?.seq ?? -1);
  const landed = session.context;
  if ('lastTurns' in records && landed?.compactedSummaryRef && landed.compactedSummarySha256 && landed.summaryNumber === FIRST_SUMMARY_NUMBER && landed.summaryThroughSeq === lastSeq) {
    // This landing wrote the summary of this conversation with the session (landingSummary).
    return { ...contextFromState(records.state, records, family), compacted_summary_ref: landed.compactedSummaryRef, compacted_summary_sha256: landed.compactedSummarySha256 };
  }
  const previous = await readPreviousSummary(store, session);
  if (previous.kind === 'current' && previous.state.throughSeq === lastSeq) {
    return { ...contextFromState(previous.state, records, family), compacted_summary_ref: previous.ref, compacted_summary_sha256: previous.sha256 };
  }
  // A log that is shorter than what the summary read (a fork, a repair) is read again from the start.
  // A landing's conversation is a new session's whole log: it has no previous summary to extend.
  const base = previous.kind === 'current' && previous.state.throughSeq <= lastSeq && !('lastTurns' in records) ? previous.state : emptyState();
  const rebuilt = previous.kind === 'unreadable' ? previous.reason : previous.kind === 'current' && base !== previous.state ? 'the log is shorter than the previous summary' : undefined;
  const state = 'lastTurns' in records ? records.state : extend(base, records);
  let number = (session.context?.summaryNumber ?? 0) + 1;
  let written: { sha256: string; ref: string } | null = null;
  for (let attempt = 0; attempt < SUMMARY_NUMBER_ATTEMPTS; attempt++, number++) {
    const markdown = renderSummary(
      { number, sessionId: session.id, previous: previous.kind === 'current' && base === previous.state ? { ref: previous.ref, sha256: previous.sha256 } : null, ...(rebuilt ? { rebuilt } : {}) },
      state,
    );
    written = await store.putNamedArtifact(session.id, summaryName(number), Buffer.from(markdown, 'utf8')).catch((error: { code?: string }) => {
      if (error.code === 'CONFLICT') return null;
      throw error;
    });
    if (written) break;
  }
  if (!written) throw Object.assign(new Error(`Session ${session.id}: no free summary number after ${SUMMARY_NUMBER_ATTEMPTS} attempts`), { code: 'IO_ERROR' });
  const fields = { ...contextFromState(state, records, family), compacted_summary_ref: written.ref, compacted_summary_sha256: written.sha256 };
  await store.mutate(session.id, (doc) => ({ ...doc, context: { ...doc.context, ...sessionContextOf(fields, number, state) } }));
  return fields;
}

/**
 * A new session's first summary, made from its landing's totals once the last record went
 * through: the artifact (`summary-01.md`) for the landing to write in its staging directory, and
 * session.json's `context` naming it. The session then appears with its summary, and
 * prepareContext finds it there instead of writing it and rewriting session.json (issue 20).
 */
export function landingSummary(session: Pick<SessionDoc, 'id' | 'source' | 'model'>, conversation: LandedConversation): { artifact: NewArtifact; context: SessionContext } {
  const name = summaryName(FIRST_SUMMARY_NUMBER);
  const bytes = Buffer.from(renderSummary({ number: FIRST_SUMMARY_NUMBER, sessionId: session.id, previous: null }, conversation.state), 'utf8');
  const fields = {
    ...contextFromState(conversation.state, conversation, tokenizerFamilyOf(session)),
    compacted_summary_ref: `${ARTIFACTS_DIR}/${name}`,
    compacted_summary_sha256: sha256Hex(bytes),
  };
  return { artifact: { bytes, name }, context: sessionContextOf(fields, FIRST_SUMMARY_NUMBER, conversation.state) };
}

/** session.json's `context` once summary `number` (through `state`) is stored. */
function sessionContextOf(fields: ContextTransfer, number: number, state: ExtractState): SessionContext {
  return {
    compactedSummaryRef: fields.compacted_summary_ref,
    compactedSummarySha256: fields.compacted_summary_sha256,
    summaryNumber: number,
    summaryThroughSeq: state.throughSeq,
    anchorMessageIds: fields.anchor_message_ids,
    tokenEstimate: fields.token_estimate,
    tokenEstimateMethod: fields.token_estimate_method,
  };
}

function summaryName(number: number): string {
  return `summary-${String(number).padStart(2, '0')}.md`;
}

type PreviousSummary = { kind: 'none' } | { kind: 'unreadable'; reason: string } | { kind: 'current'; ref: string; sha256: string; state: ExtractState };

async function readPreviousSummary(store: SessionStore, session: SessionDoc): Promise<PreviousSummary> {
  const ref = session.context?.compactedSummaryRef;
  const sha256 = session.context?.compactedSummarySha256;
  if (!ref || !sha256) return { kind: 'none' };
  let markdown: string;
  try {
    markdown = Buffer.from(await store.readArtifact(session.id, ref, sha256)).toString('utf8');
  } catch (error) {
    return { kind: 'unreadable', reason: `${ref} could not be read (${(error as Error).message})` };
  }
  const parsed = parseSummaryState(markdown);
  return parsed.ok ? { kind: 'current', ref, sha256, state: parsed.state } : { kind: 'unreadable', reason: `${ref}: ${parsed.reason}` };
}
