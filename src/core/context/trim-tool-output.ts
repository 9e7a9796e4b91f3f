import type { FullOutput, MessageInput } from '../../shared/message.js';
import type { NewArtifact } from '../store/types.js';
import { sha256Hex } from '../hash.js';

/** Outputs up to this size travel whole; larger ones are trimmed with the full text in an artifact. */
export const TRIM_OVER_BYTES = 8 * 1024;
/** …or with more lines than this. */
export const TRIM_OVER_LINES = 120;
/** Lines kept from the start and from the end of a trimmed output. */
export const TRIM_HEAD_LINES = 20;
export const TRIM_TAIL_LINES = 30;
/** Error lines kept from the part that is cut, with their line numbers. */
export const TRIM_ERROR_LINES_MAX = 40;
/** Longest line kept as it is; longer lines are cut with a marker. */
export const TRIM_LINE_MAX_CHARS = 500;
export const FULL_OUTPUT_EXTENSION = 'txt';

/** Lines a reader of a long log looks for first: failures, exceptions, compiler and test errors. */
const ERROR_LINE = /\b(error|errors|failed|failure|fail|fatal|panic|exception|traceback|assert(ion)?|denied|refused|not found|segmentation fault)\b|\bERR!|✗|✘|×/i;

export interface TrimmedText {
  text: string;
  fullOutput: FullOutput;
  bytes: Buffer;
}

/**
 * Structural trim (design article §3.4): the exit code, the first and last lines and the error
 * lines in between, each cut marked with how much was left out. Returns null when the output is
 * small enough to travel whole.
 */
export function trimOutput(output: string, exitCode?: number | null): TrimmedText | null {
  // Most outputs are small: decide without copying or splitting them.
  if (Buffer.byteLength(output, 'utf8') <= TRIM_OVER_BYTES && lineCountAtMost(output, TRIM_OVER_LINES)) return null;
  const bytes = Buffer.from(output, 'utf8');
  const lines = output.split('\n');
  const sha256 = sha256Hex(bytes);
  const fullOutput: FullOutput = { ref: `artifacts/${sha256}.${FULL_OUTPUT_EXTENSION}`, sha256, bytes: bytes.length, lines: lines.length };
  const head = Math.min(TRIM_HEAD_LINES, lines.length);
  const tailStart = Math.max(head, lines.length - TRIM_TAIL_LINES);
  const errors: string[] = [];
  let errorTotal = 0;
  for (let i = head; i < tailStart; i++) {
    if (!ERROR_LINE.test(lines[i]!)) continue;
    errorTotal++;
    if (errors.length < TRIM_ERROR_LINES_MAX) errors.push(`${String(i + 1).padStart(6)}│ ${cut(lines[i]!)}`);
  }
  const out: string[] = [`[trimmed by Baton: ${lines.length} lines, ${bytes.length} bytes${exitCode === undefined || exitCode === null ? '' : `, exit code ${exitCode}`}; full output ${fullOutput.ref}]`];
  out.push(...lines.slice(0, head).map(cut));
  const omitted = tailStart - head;
  if (omitted > 0) {
    out.push(`… ${omitted} lines omitted${errorTotal > 0 ? `; ${errorTotal} error line${errorTotal === 1 ? '' : 's'} among them${errorTotal > errors.length ? ` (first ${errors.length} shown)` : ''}:` : ' …'}`);
    out.push(...errors);
    if (errorTotal > 0) out.push('… end of error lines …');
  }
  out.push(...lines.slice(tailStart).map(cut));
  return { text: out.join('\n'), fullOutput, bytes };
}

/** True when the text has at most `max` lines, counting no further than needed. */
function lineCountAtMost(text: string, max: number): boolean {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) if (++lines > max) return false;
  return true;
}

function cut(line: string): string {
  return line.length <= TRIM_LINE_MAX_CHARS ? line : `${line.slice(0, TRIM_LINE_MAX_CHARS)}… [${line.length - TRIM_LINE_MAX_CHARS} more characters]`;
}

/**
 * Trims every large tool output of the messages (tool-call outputs and `tool` messages) and
 * returns the artifacts holding the full texts, to be landed with the session: nothing is lost,
 * the message refers to its full output by hash.
 */
export function trimToolOutputs(messages: readonly MessageInput[]): { messages: MessageInput[]; artifacts: NewArtifact[] } {
  const artifacts: NewArtifact[] = [];
  const keep = (trimmed: TrimmedText) => {
    artifacts.push({ bytes: trimmed.bytes, extension: FULL_OUTPUT_EXTENSION });
    return { fullOutput: trimmed.fullOutput };
  };
  const out = messages.map((message) => {
    let next = message;
    if (message.role === 'tool' && !message.fullOutput) {
      const trimmed = trimOutput(message.content, message.exitCode);
      if (trimmed) next = { ...next, content: trimmed.text, ...keep(trimmed) };
    }
    if (message.toolCalls?.some((call) => typeof call.output === 'string' && !call.fullOutput)) {
      next = {
        ...next,
        toolCalls: message.toolCalls.map((call) => {
          const trimmed = typeof call.output === 'string' && !call.fullOutput ? trimOutput(call.output, call.exitCode) : null;
          return trimmed ? { ...call, output: trimmed.text, ...keep(trimmed) } : call;
        }),
      };
    }
    return next;
  });
  return { messages: out, artifacts };
}
