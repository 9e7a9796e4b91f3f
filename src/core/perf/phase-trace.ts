import { appendFileSync } from 'node:fs';

/**
 * Where a CLI process's time goes, for bench/handoff/cli-process.ts (issue 20, "CLI start-up"):
 * when BATON_PHASE_TRACE names a file, the process appends one JSON line there at exit with
 *  - marks: milliseconds since the process started (`performance.now()`), e.g. `main` (the
 *    bundle is loaded and the CLI starts), `action` (arguments parsed), `done`, `exit`;
 *  - parts: the wall time during which at least one operation of that kind was pending (git
 *    calls run in parallel, so this is not their sum), and how many there were.
 * Without the variable every call is one comparison: nothing is recorded or written.
 */
export const PHASE_TRACE_ENV = 'BATON_PHASE_TRACE';

/** The kinds of waiting the bench reports separately. */
export type TracedPart = 'git' | 'fsync' | 'socket';

interface PartState {
  ms: number;
  count: number;
  pending: number;
  since: number;
}

export interface PhaseTraceLine {
  marks: Record<string, number>;
  parts: Record<TracedPart, { ms: number; count: number }>;
}

const traceFile = process.env[PHASE_TRACE_ENV] || null;
const marks: Record<string, number> = {};
const parts = new Map<TracedPart, PartState>();

if (traceFile) {
  process.once('exit', () => {
    markPhase('exit');
    const line: PhaseTraceLine = { marks, parts: { git: summary('git'), fsync: summary('fsync'), socket: summary('socket') } };
    appendFileSync(traceFile, `${JSON.stringify(line)}\n`);
  });
}

function summary(part: TracedPart): { ms: number; count: number } {
  const state = parts.get(part);
  return { ms: Math.round((state?.ms ?? 0) * 100) / 100, count: state?.count ?? 0 };
}

/** Records the first time the process reaches `name`. */
export function markPhase(name: string): void {
  if (traceFile && marks[name] === undefined) marks[name] = Math.round(performance.now() * 100) / 100;
}

/**
 * Records `name` at `ms` since the process started, for a step another process timed (a hosted
 * handoff's host: its parts are placed after the moment the request left, src/cli/handoff-fast.ts).
 */
export function markPhaseAt(name: string, ms: number): void {
  if (traceFile && marks[name] === undefined && Number.isFinite(ms)) marks[name] = Math.round(ms * 100) / 100;
}

/** Whether this process records a trace (a caller then asks for what it would not otherwise gather). */
export function phaseTraceOn(): boolean {
  return traceFile !== null;
}

/** Counts `work` under `part` while it is pending; returns it unchanged. */
export function tracePart<T>(part: TracedPart, work: Promise<T>): Promise<T> {
  if (!traceFile) return work;
  let state = parts.get(part);
  if (!state) parts.set(part, (state = { ms: 0, count: 0, pending: 0, since: 0 }));
  const s = state;
  s.count++;
  if (s.pending++ === 0) s.since = performance.now();
  const settle = () => {
    if (--s.pending === 0) s.ms += performance.now() - s.since;
  };
  work.then(settle, settle);
  return work;
}
