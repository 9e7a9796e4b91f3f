import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWTH_CAP_MIN_FILES } from './heap-growth.js';
import { entryOf, saveCandidateIndex } from '../importers/candidate-index.js';

// Issue 15: a process that holds many sessions caps V8's heap growth. The child runs `setup`,
// then keeps 100,000 objects alive among three million that each live for up to 200,000
// allocations (a scan's shape: entries kept, per-file objects dropped) and reports the largest
// heap V8 committed.
const HEAP_GROWTH = resolve(import.meta.dirname, 'heap-growth.ts');
const CANDIDATE_INDEX = resolve(import.meta.dirname, '..', 'importers', 'candidate-index.ts');
const churn = (setup: string) => `
${setup}
const kept = [];
let hold = [];
let peak = 0;
for (let i = 0; i < 3_000_000; i++) {
  const o = { text: 'x'.repeat(20) + i, pair: [i, i + 1] };
  hold.push(o);
  if (hold.length > 200_000) hold = [];
  if (i % 30 === 0) kept.push(o);
  if (i % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak));
`;

function peakHeapAfter(setup: string, env: Record<string, string>): Promise<number> {
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', churn(setup)], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(Number(stdout)),
    ),
  );
}

const LIMIT_ONLY = `const { limitHeapGrowth } = await import(${JSON.stringify(HEAP_GROWTH)});
limitHeapGrowth(Number(process.env.FILES));`;
// The host's start: the index read resident, its entries held.
const READ_RESIDENT = `const { readCandidateIndex } = await import(${JSON.stringify(CANDIDATE_INDEX)});
globalThis.held = await readCandidateIndex(process.env.INDEX, { resident: true });
if (!globalThis.held) throw new Error('index not read');`;

/** An index of `n` small entries, as a scan writes it. */
async function indexOf(n: number, file: string): Promise<void> {
  const entries = Array.from({ length: n }, (_, i) => {
    const id = `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const path = `/h/.claude/projects/p${i % 9}/${id}.jsonl`;
    const at = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
    const candidate = { source: 'claude' as const, externalId: id, path, title: `t${i}`, cwd: `/p${i % 9}`, branch: null, updatedAt: at, messageCount: 1, messageCountExact: true, model: null, cliVersion: '2.1.39', fingerprint: `fp-${i}`, resumeCommand: `claude --resume ${id}` };
    return entryOf(path, 'claude', i, i, candidate, null, [1, 0, 0, 0]);
  });
  await saveCandidateIndex(file, entries);
}

describe('limitHeapGrowth (issue 15)', () => {
  it('keeps the heap near what stays alive once a process holds many sessions, and leaves a small one to V8', async () => {
    const [capped, small] = await Promise.all([
      peakHeapAfter(LIMIT_ONLY, { FILES: String(HEAP_GROWTH_CAP_MIN_FILES) }),
      peakHeapAfter(LIMIT_ONLY, { FILES: String(HEAP_GROWTH_CAP_MIN_FILES - 1) }),
    ]);
    // Measured: 134-162 MB capped, 284-309 MB left to V8's own growth (also with two busy loops on the two cores).
    expect(capped).toBeLessThan(small * 0.7);
  }, 60_000);

  it('is capped by a resident read of an index of that many entries (the host caps it before decoding them)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-heap-growth-'));
    try {
      const [many, few] = [join(dir, 'many.idx'), join(dir, 'few.idx')];
      await indexOf(HEAP_GROWTH_CAP_MIN_FILES, many);
      await indexOf(HEAP_GROWTH_CAP_MIN_FILES - 1, few);
      const [capped, small] = await Promise.all([peakHeapAfter(READ_RESIDENT, { INDEX: many }), peakHeapAfter(READ_RESIDENT, { INDEX: few })]);
      expect(capped).toBeLessThan(small * 0.7);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
