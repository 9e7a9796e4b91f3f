import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCAN_HEAP_CAP_MIN_FILES } from './limits.js';

// Issue 15: a full scan caps V8's heap growth only from SCAN_HEAP_CAP_MIN_FILES session files. A
// child calls the scan's cap for FILES files, then keeps 100,000 objects alive among three million
// that each live for up to 200,000 allocations (a scan's shape, as in perf/heap-growth.test.ts) and
// reports the largest heap V8 committed.
const SCAN_HEAP = resolve(import.meta.dirname, 'scan-heap.ts');
const CHURN = `
const { limitScanHeapGrowth } = await import(${JSON.stringify(SCAN_HEAP)});
limitScanHeapGrowth(Number(process.env.FILES), process.env.HELD === '1');
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

function peakHeapFor(files: number, held = false): Promise<number> {
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHURN], { env: { ...process.env, FILES: String(files), HELD: held ? '1' : '0' } }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(Number(stdout)),
    ),
  );
}

describe('limitScanHeapGrowth (issue 15)', () => {
  it('leaves a 20,000-session scan to V8 (its live set is small) and caps one of SCAN_HEAP_CAP_MIN_FILES, and a host\'s at 20,000', async () => {
    const [twentyK, capped, held] = await Promise.all([peakHeapFor(20_000), peakHeapFor(SCAN_HEAP_CAP_MIN_FILES), peakHeapFor(20_000, true)]);
    // Before, every scan capped from 10,000 files: 20,000 gave the capped heap (134-162 MB against 284-309 in heap-growth.test.ts).
    expect(capped).toBeLessThan(twentyK * 0.7);
    expect(held).toBeLessThan(twentyK * 0.7);
  }, 90_000);
});
