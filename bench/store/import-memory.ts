// Issue 20: what the import holds, in-process. The whole-array conversion (readAgentSession, the
// baseline, measured in the same run) against the streamed one (planTranscript, then its stream
// consumed part by part as the landing does): live heap after a full GC at each step, peak RSS, CPU.
// Each mode runs in its own node process (--expose-gc, tsx).
//   npx tsx bench/store/import-memory.ts FILE.jsonl [claude|codex]
// FILE must lie under HOME/.claude/projects (or .codex/sessions); keep one from big-import.ts with
// BATON_BENCH_KEEP=1 (it prints the path) and run with HOME set to that run's home.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { printTable } from '../stats.js';

const [file, source = 'claude', mode] = process.argv.slice(2);
if (!file) throw new Error('usage: import-memory.ts FILE.jsonl [claude|codex]');
const mb = (n: number) => (n / 1048576).toFixed(0);

if (mode) {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const heap = () => (gc(), process.memoryUsage().heapUsed);
  const row: Record<string, string> = { mode };
  if (mode === 'whole') {
    const { readAgentSession } = await import('../../src/core/importers/read-session.js');
    const session = await readAgentSession(source as 'claude', file);
    row['heap after read MB'] = mb(heap());
    row.messages = String(session.messages.length);
  } else {
    const { planTranscript } = await import('../../src/core/handoff/transcript-source.js');
    const plan = await planTranscript(source as 'claude', file);
    row['heap after read MB'] = mb(heap());
    let peak = 0;
    let count = 0;
    let parts = 0;
    for await (const part of plan.source.parts()) {
      count += part.length;
      // Every 50th part: a full GC is too slow to run on each.
      if (parts++ % 50 === 0) peak = Math.max(peak, heap());
    }
    row['heap while streaming MB (peak of samples)'] = mb(peak);
    row['held peak (messages)'] = String(plan.heldPeak);
    row.messages = String(count);
  }
  const used = process.cpuUsage(cpu);
  row['wall ms'] = (performance.now() - started).toFixed(0);
  row['CPU ms'] = ((used.user + used.system) / 1000).toFixed(0);
  row['peak RSS MB'] = mb(process.resourceUsage().maxRSS * 1024);
  console.log(JSON.stringify(row));
} else {
  const rows = ['whole', 'streamed'].map((m) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, file, source, m], { encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n').pop()!) as Record<string, string>);
  console.log(`\n${file}; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; "whole" is the baseline (readAgentSession, one message array)\n`);
  // One set of columns for both rows ('–' where a mode has no such figure).
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  printTable(rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? '–']))));
}
