import type { MessageRecord } from '../../shared/message.js';
import { countUnits } from './token-estimate.js';

/** Characters of a message searched for decisions, constraints and questions (the rest is rarely prose). */
export const EXTRACT_SCAN_CHARS = 8 * 1024;
/** Longest quote kept for one extracted item. */
export const ITEM_MAX_CHARS = 280;
/** Decisions and constraints kept: the earliest few (a session's ground rules) and the latest. */
export const DECISIONS_EARLY = 10;
export const DECISIONS_LATE = 30;
/** Open questions kept (the latest). */
export const QUESTIONS_MAX = 10;
/** Failed tool calls listed (the latest). */
export const FAILURES_MAX = 10;
/** Longest compaction summary (Claude Code's or Codex's) carried into Baton's summary. */
export const COMPACTION_MAX_CHARS = 16 * 1024;
/** Goal text kept. */
export const GOAL_MAX_CHARS = 1_200;

export type ItemKind = 'decision' | 'constraint';

export interface Item {
  id: string;
  seq: number;
  role: string;
  text: string;
  kind?: ItemKind;
}

/**
 * What an extractive summary has read so far. It is carried inside each summary-NN.md, so the
 * next handoff reads only the messages after `throughSeq` (progressive, not redone).
 */
export interface ExtractState {
  throughSeq: number;
  messages: number;
  toolCalls: number;
  failedToolCalls: number;
  /** Unscaled token units (token-estimate.ts) of everything read. */
  units: number;
  goal: Item | null;
  decisions: Item[];
  questions: Item[];
  failures: Item[];
  compaction: Item | null;
}

export function emptyState(): ExtractState {
  return { throughSeq: -1, messages: 0, toolCalls: 0, failedToolCalls: 0, units: 0, goal: null, decisions: [], questions: [], failures: [], compaction: null };
}

/** "We'll / let's / decided / going with / agreed / instead of": a plan was adopted or rejected. */
export const DECISION = /\b(decided|decision|we(?:'ll| will| should)|let'?s (?:go|use|keep|do|switch|stick)|going with|agreed|settled on|chose|choose to|instead of|rejected|won'?t|the plan is|plan:)\b/i;
/** "must / never / always / don't / only / required": a rule the work must keep. */
export const CONSTRAINT = /\b(must(?:n'?t| not)?|never|always|do(?:n'?t| not)|should(?:n'?t| not)|only (?:use|touch|change|edit)|required?|requirement|constraint|make sure|no more than|at most|at least|without (?:changing|touching|breaking))\b/i;

/** Reads the records after the state's `throughSeq` into a new state; the input state is not changed. */
export function extend(previous: ExtractState, records: readonly MessageRecord[]): ExtractState {
  const state: ExtractState = {
    ...previous,
    decisions: [...previous.decisions],
    questions: [...previous.questions],
    failures: [...previous.failures],
  };
  for (const record of records) extendWith(state, record);
  return state;
}

/** Reads one record into `state` (changed in place): a landing feeds each record as it writes it. */
export function extendWith(state: ExtractState, record: MessageRecord): void {
  if (record.seq <= state.throughSeq) return;
  state.throughSeq = record.seq;
  state.messages++;
  state.units += countUnits(record.content);
  for (const call of record.toolCalls ?? []) {
    state.toolCalls++;
    state.units += countUnits(call.name) + (call.input === undefined ? 0 : countUnits(JSON.stringify(call.input))) + (call.output ? countUnits(call.output) : 0);
    if (typeof call.exitCode === 'number' && call.exitCode !== 0) {
      state.failedToolCalls++;
      state.failures.push({ id: record.id, seq: record.seq, role: 'tool', text: `${call.name} ${quote(commandOf(call.input), 160)} → exit ${call.exitCode}` });
      if (state.failures.length > FAILURES_MAX) state.failures.shift();
    }
  }
  if ((record as { compactSummary?: unknown }).compactSummary === true) {
    state.compaction = { id: record.id, seq: record.seq, role: record.role, text: record.content.slice(0, COMPACTION_MAX_CHARS) };
    return;
  }
  if (record.role !== 'user' && record.role !== 'assistant') return;
  const text = record.content.slice(0, EXTRACT_SCAN_CHARS);
  if (text.trim().length === 0) return;
  // The goal is often where the ground rules are stated too: it is read for constraints like any message.
  if (record.role === 'user' && state.goal === null) state.goal = { id: record.id, seq: record.seq, role: 'user', text: quote(record.content, GOAL_MAX_CHARS) };
  // A reply from the other side closes the questions it could answer.
  if (state.questions.some((q) => q.role !== record.role)) state.questions = state.questions.filter((q) => q.role === record.role);
  // Each sentence is a piece of `text` cut at whitespace, so a word the rules look for, or a '?',
  // is in a sentence only if it is in the text: most messages have neither and are not split
  // (issue 20: the summary's totals ran on every landed record).
  const asks = text.includes('?');
  let decided = !CONSTRAINT.test(text) && !DECISION.test(text);
  if (decided && !asks) return;
  forEachSentence(text, (sentence) => {
    if (!decided) {
      const kind: ItemKind | null = CONSTRAINT.test(sentence) ? 'constraint' : DECISION.test(sentence) ? 'decision' : null;
      if (kind) {
        addDecision(state, { id: record.id, seq: record.seq, role: record.role, text: quote(sentence, ITEM_MAX_CHARS), kind });
        decided = true;
      }
    }
    if (sentence.endsWith('?')) {
      state.questions = state.questions.filter((q) => q.id !== record.id);
      state.questions.push({ id: record.id, seq: record.seq, role: record.role, text: quote(sentence, ITEM_MAX_CHARS) });
      if (state.questions.length > QUESTIONS_MAX) state.questions.shift();
    }
    // Past the decision, only a question can still matter.
    return !decided || asks;
  });
}

function addDecision(state: ExtractState, item: Item): void {
  state.decisions.push(item);
  // Keep the first few (ground rules stated early) and the latest (what holds now); drop the middle.
  if (state.decisions.length > DECISIONS_EARLY + DECISIONS_LATE) state.decisions.splice(DECISIONS_EARLY, 1);
}

/** Prose sentences and list items, outside fenced code blocks, in order, until `each` returns false. */
function forEachSentence(text: string, each: (sentence: string) => boolean): void {
  let inCode = false;
  for (const line of text.split('\n')) {
    if (line.trimStart().startsWith('```')) {
      inCode = !inCode;
      continue;
    }
    if (inCode) continue;
    for (const part of line.split(/(?<=[.!?])\s+(?=[A-Z"'(`])/)) {
      const s = part.trim().replace(/^[-*+]\s+|^\d+[.)]\s+/, '');
      if (s.length >= 8 && !each(s)) return;
    }
  }
}

function quote(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function commandOf(input: unknown): string {
  if (input && typeof input === 'object') {
    const value = (input as Record<string, unknown>).command ?? (input as Record<string, unknown>).cmd;
    if (typeof value === 'string') return value.split('\n')[0]!;
    if (Array.isArray(value)) return value.join(' ');
  }
  return input === undefined ? '' : JSON.stringify(input);
}
