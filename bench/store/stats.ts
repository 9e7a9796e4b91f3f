/** Shared helpers for the store benchmarks: timing, percentiles and a plain table. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (values: number[]): number => percentile(values, 50);

export async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

export function printTable(title: string, header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  for (const [i, r] of cells.entries()) {
    console.log(`| ${r.map((c, j) => String(c).padEnd(widths[j]!)).join(' | ')} |`);
    if (i === 0) console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  }
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
