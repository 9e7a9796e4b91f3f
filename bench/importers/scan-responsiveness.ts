/**
 * Issue 15, a host's cold scan as the UI sees it: the host's first scan of a fresh data
 * directory (scanCandidateIndexFull with onPartial, in this process, as agent-candidates.ts runs
 * it) while a 1 ms timer stands in for the page's requests. Per run: when the first partial rows
 * come, how many of them are among the newest files of the corpus (the UI's first page shows the
 * newest), the event loop's longest stall and 99th percentile (how long a page asset or an
 * agents:list waits behind the scan), total wall and CPU time.
 *
 *   npx tsx bench/importers/scan-responsiveness.ts --dir=/tmp/c15f/full [--before=/path/to/older/checkout] [--runs=2]
 *
 * --before: another checkout's source tree (e.g. `git archive` of the previous commit); its
 * scan.ts is loaded beside this one and the runs alternate: before/after in one run.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { discoverSessionFiles } from '../../src/core/importers/discover.js';
import { locateAgentDirs } from '../../src/core/importers/locate.js';
import { nodeImportReader, statAll } from '../../src/core/importers/reader.js';
import * as thisScan from '../../src/core/importers/scan.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 2);
const env = { HOME: join(dir, 'home') };
/** The UI's first page (AGENT_FIRST_PAGE). */
const FIRST_PAGE = 200;

type Scan = typeof thisScan.scanCandidateIndexFull;

function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
}

async function once(scan: Scan, newest: Set<string>): Promise<Record<string, number>> {
  const data = await mkdtemp(join(tmpdir(), 'baton-scan-resp-'));
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let firstMs = NaN;
  let firstNewest = NaN;
  try {
    await scan({
      env,
      cacheFile: join(data, 'importers-cache.json'),
      onPartial: (added) => {
        if (!Number.isNaN(firstMs)) return;
        firstMs = performance.now() - t0;
        // The UI's first page: the newest of what it has, by file time.
        const page = [...added].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, FIRST_PAGE);
        firstNewest = page.filter((e) => newest.has(e.path)).length;
      },
    });
  } finally {
    clearInterval(timer);
    await rm(data, { recursive: true, force: true });
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    'first rows ms': Math.round(firstMs),
    [`of its first ${FIRST_PAGE}, among the newest ${FIRST_PAGE}`]: firstNewest,
    'longest stall ms': Math.round(Math.max(...gaps)),
    'p99 stall ms': Math.round(percentile(gaps, 0.99)),
    'total ms': Math.round(performance.now() - t0),
    'CPU ms': Math.round((cpu.user + cpu.system) / 1000),
  };
}

async function main(): Promise<void> {
  console.log(`corpus: ${dir}; load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  // The newest files of the corpus by mtime: what the first page should show.
  const found = await discoverSessionFiles(nodeImportReader, locateAgentDirs(env));
  const stats = await statAll(nodeImportReader, found.files.map((f) => f.path));
  const byTime = found.files.map((f, i) => ({ path: f.path, t: stats[i] instanceof Error ? 0 : (stats[i] as { mtimeMs: number }).mtimeMs })).sort((a, b) => b.t - a.t);
  const newest = new Set(byTime.slice(0, FIRST_PAGE).map((f) => f.path));
  const builds: Array<[string, Scan]> = [];
  const before = args.get('before');
  if (before) builds.push([`before (${before})`, ((await import(resolve(before, 'src/core/importers/scan.ts'))) as typeof thisScan).scanCandidateIndexFull]);
  builds.push(['this build', thisScan.scanCandidateIndexFull]);
  const rows: Record<string, string | number>[] = [];
  for (let r = 0; r < runs; r++) for (const [name, scan] of builds) rows.push({ build: name, run: r + 1, ...(await once(scan, newest)) });
  console.table(rows);
  console.log(`load average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
