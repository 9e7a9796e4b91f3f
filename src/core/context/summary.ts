import { z } from 'zod';
import { builtOnFirstUse } from '../../shared/built-on-first-use.js';
import { describeZodError } from '../../shared/manifest.js';
import type { ExtractState, Item } from './extract.js';

/** The marker of the machine-readable state at the end of summary-NN.md. */
const STATE_OPEN = '<!-- baton-summary-state ';
const STATE_CLOSE = ' -->';
export const SUMMARY_STATE_VERSION = 1;

const ItemSchema = builtOnFirstUse(() => z.object({ id: z.string(), seq: z.number().int(), role: z.string(), text: z.string(), kind: z.enum(['decision', 'constraint']).optional() }));
const StateSchema = builtOnFirstUse(() => z.object({
  version: z.literal(SUMMARY_STATE_VERSION),
  throughSeq: z.number().int(),
  messages: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  failedToolCalls: z.number().int().nonnegative(),
  units: z.number().nonnegative(),
  goal: ItemSchema.nullable(),
  decisions: z.array(ItemSchema),
  questions: z.array(ItemSchema),
  failures: z.array(ItemSchema),
  compaction: ItemSchema.nullable(),
}));

export interface SummaryHeader {
  number: number;
  sessionId: string;
  /** The summary this one extends, when there was one. */
  previous: { ref: string; sha256: string } | null;
  /** Why the summary was rebuilt from the whole log rather than extended, when it was. */
  rebuilt?: string;
}

/**
 * summary-NN.md: a person reads the Markdown; the next handoff reads the state in the closing
 * comment and extends it with the newer messages only.
 */
export function renderSummary(header: SummaryHeader, state: ExtractState): string {
  const out: string[] = [`# Session summary ${String(header.number).padStart(2, '0')}`, ''];
  out.push(
    `Session \`${header.sessionId}\`: ${plural(state.messages, 'message')} (seq 0–${state.throughSeq}), ${plural(state.toolCalls, 'tool call')}, ${state.failedToolCalls} failed. Extractive: every line below quotes a message, named by its id; the full log stays in messages.jsonl.`,
  );
  if (header.previous) out.push('', `Extends \`${header.previous.ref}\` (sha256 ${header.previous.sha256}).`);
  if (header.rebuilt) out.push('', `Rebuilt from the whole log: ${header.rebuilt}.`);
  section(out, 'Goal', state.goal ? [item(state.goal)] : []);
  section(out, 'Decisions and constraints', state.decisions.map((d) => `${item(d)} _(${d.kind ?? 'decision'})_`));
  section(out, 'Open questions', state.questions.map(item));
  section(out, 'Failed tool calls (latest)', state.failures.map(item));
  if (state.compaction) {
    out.push('', `## Earlier context (compaction summary, message \`${state.compaction.id}\`)`, '', ...state.compaction.text.split('\n').map((l) => `> ${l}`));
  }
  out.push('', `${STATE_OPEN}${encodeState(state)}${STATE_CLOSE}`, '');
  return out.join('\n');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function section(out: string[], title: string, lines: string[]): void {
  out.push('', `## ${title}`, '');
  out.push(...(lines.length > 0 ? lines : ['_none_']));
}

function item(i: Item): string {
  return `- [${i.role} \`${i.id}\` · seq ${i.seq}] ${i.text}`;
}

/** JSON inside an HTML comment: "--" may not appear there, so it is escaped (still valid JSON). */
function encodeState(state: ExtractState): string {
  return JSON.stringify({ version: SUMMARY_STATE_VERSION, ...state }).replace(/--/g, '-\\u002d').replace(/>/g, '\\u003e');
}

export type ParsedState = { ok: true; state: ExtractState } | { ok: false; reason: string };

/** Reads the state back from a summary's Markdown; a precise reason when it cannot. */
export function parseSummaryState(markdown: string): ParsedState {
  const start = markdown.lastIndexOf(STATE_OPEN);
  if (start < 0) return { ok: false, reason: 'no baton-summary-state comment' };
  const end = markdown.indexOf(STATE_CLOSE, start + STATE_OPEN.length);
  if (end < 0) return { ok: false, reason: 'the baton-summary-state comment is not closed' };
  let raw: unknown;
  try {
    raw = JSON.parse(markdown.slice(start + STATE_OPEN.length, end));
  } catch (error) {
    return { ok: false, reason: `the summary state is not JSON: ${(error as Error).message}` };
  }
  const parsed = StateSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `the summary state is not valid: ${describeZodError(parsed.error)}` };
  const { version: _version, ...state } = parsed.data;
  return { ok: true, state };
}
