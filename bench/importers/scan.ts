/**
 * Importer scan benchmark: a generated corpus of Claude Code and Codex CLI logs, scanned cold
 * (no cache), warm (nothing changed), and warm after 10 files grew, against a whole-file parse of
 * the same corpus in the same run (the baseline). Peak RSS per phase from VmHWM.
 *
 *   npx tsx bench/importers/scan.ts [--scale=1] [--claude=2000] [--codex=2000] [--keep | --reuse] [--quick]
 */
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { feedDigest, newDigest } from '../../src/core/importers/digest.js';
import { forEachLine } from '../../src/core/importers/lines.js';
import { nodeImportReader } from '../../src/core/importers/reader.js';
import { scanAgentSessions } from '../../src/core/importers/scan.js';
import { forgetScanCacheMemo } from '../../src/core/importers/scan-cache.js';
import { generateCorpus, type CorpusFile } from './corpus.js';

const args = new Map<string, string | undefined>(process.argv.slice(2).map((a) => { const [key = '', value] = a.replace(/^--/, '').split('='); return [key, value]; }));
const scale = Number(args.get('scale') ?? 1);
const claudeFiles = Number(args.get('claude') ?? 2000);
const codexFiles = Number(args.get('codex') ?? 2000);
const keep = args.has('keep') || args.has('reuse');
/** --reuse: use a corpus kept by an earlier --keep run instead of generating one. */
const reuse = args.has('reuse');
const RUNS = { cold: 3, warm: 10, append: 5, baseline: 2 };

const root = resolve(import.meta.dirname, '..', '.data', 'importers');
const home = join(root, 'home');
const cacheFile = join(root, 'scan-cache.json');
const env = { HOME: home };

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** Resets the kernel's peak-RSS mark (Linux clear_refs 5) so each phase reports its own peak. */
async function resetPeak(): Promise<void> {
  await writeFile('/proc/self/clear_refs', '5').catch(() => undefined);
}

async function peakMb(): Promise<number> {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(await readFile('/proc/self/status', 'utf8'));
    if (m?.[1]) return Number(m[1]) / 1024;
  } catch {
    // Not Linux: fall back to the current RSS.
  }
  return process.memoryUsage().rss / 1024 / 1024;
}

interface Phase {
  name: string;
  times: number[];
  /** user + system CPU ms per run: less sensitive than wall time to other load on the machine. */
  cpu: number[];
  peak: number;
  extra: string;
}

async function measure(name: string, runs: number, before: () => Promise<void>, body: () => Promise<string>): Promise<Phase> {
  const times: number[] = [];
  const cpu: number[] = [];
  let peak = 0;
  let extra = '';
  for (let i = 0; i < runs; i++) {
    await before();
    (globalThis as { gc?: () => void }).gc?.();
    await resetPeak();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    extra = await body();
    times.push(performance.now() - t0);
    const c1 = process.cpuUsage(c0);
    cpu.push((c1.user + c1.system) / 1000);
    peak = Math.max(peak, await peakMb());
  }
  return { name, times, cpu, peak, extra };
}

/** The baseline: every line of every file parsed, as a scan without head/tail reads would. */
async function wholeFileParse(files: CorpusFile[]): Promise<string> {
  let messages = 0;
  for (const f of files) {
    const d = newDigest(f.source);
    const handle = await nodeImportReader.open(f.path);
    try {
      await forEachLine(handle, 0, f.size, (line) => feedDigest(d, line, new Set()));
    } finally {
      await handle.close();
    }
    messages += d.userCount + d.assistantCount;
  }
  return `${messages} messages`;
}

async function main(): Promise<void> {
  const listFile = join(root, 'files.json');
  const g0 = performance.now();
  let files: CorpusFile[];
  if (reuse) files = JSON.parse(await readFile(listFile, 'utf8')) as CorpusFile[];
  else {
    await rm(root, { recursive: true, force: true });
    await mkdir(home, { recursive: true });
    files = await generateCorpus(home, { claudeFiles, codexFiles, scale });
    await writeFile(listFile, JSON.stringify(files));
  }
  const genMs = performance.now() - g0;
  const bytes = (source: string) => files.filter((f) => f.source === source).reduce((n, f) => n + f.size, 0);
  const big = files.filter((f) => f.size >= 50 * 1024 * 1024).length;
  console.log(`corpus: ${claudeFiles} Claude files (${(bytes('claude') / 2 ** 30).toFixed(2)} GiB, ${big} of >= 50 MiB), ${codexFiles} Codex rollouts (${(bytes('codex') / 2 ** 20).toFixed(0)} MiB), scale ${scale}; generated in ${(genMs / 1000).toFixed(1)} s`);
  console.log('page cache: warm (the corpus was just written; no root-only cache drop)');

  const baseline = await measure('baseline: whole-file parse', args.has('quick') ? 1 : RUNS.baseline, async () => undefined, () => wholeFileParse(files));
  const cold = await measure('cold scan (no cache)', RUNS.cold, () => rm(cacheFile, { force: true }), async () => {
    const r = await scanAgentSessions({ env, cacheFile });
    return `${r.candidates.length} candidates, ${(r.stats.bytesRead / 2 ** 20).toFixed(0)} MiB read`;
  });
  const warm = await measure('warm rescan (nothing changed)', RUNS.warm, async () => undefined, async () => {
    const r = await scanAgentSessions({ env, cacheFile });
    return `${r.stats.cached} cached, ${r.stats.parsed} parsed, ${r.stats.bytesRead} B read`;
  });
  // What a fresh `baton list` process sees: the cache JSON parsed from disk, no in-process memo.
  const warmDisk = await measure('warm rescan, cache parsed from disk', RUNS.warm, async () => forgetScanCacheMemo(), async () => {
    const r = await scanAgentSessions({ env, cacheFile });
    return `${r.stats.cached} cached, ${r.stats.parsed} parsed`;
  });
  let round = 0;
  const grown = await measure(
    'warm rescan, 10 files appended',
    RUNS.append,
    async () => {
      round += 1;
      for (let k = 0; k < 10; k++) {
        const f = files[(k * 397 + round) % files.length]!;
        const ts = new Date(Date.parse('2026-11-29T10:00:00Z') + round * 1000).toISOString();
        const line =
          f.source === 'claude'
            ? { parentUuid: null, type: 'user', message: { role: 'user', content: `appended ${round}` }, uuid: `app-${round}-${k}`, timestamp: ts }
            : { timestamp: ts, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `appended ${round}` }] } };
        await appendFile(f.path, JSON.stringify(line) + '\n');
      }
    },
    async () => {
      const r = await scanAgentSessions({ env, cacheFile });
      return `${r.stats.parsed} parsed, ${r.stats.bytesRead} B read`;
    },
  );

  const base = pct(baseline.times, 50);
  const rows = [baseline, cold, warm, warmDisk, grown].map((p) => ({
    phase: p.name,
    runs: p.times.length,
    'median ms': Math.round(pct(p.times, 50)),
    'p95 ms': Math.round(pct(p.times, 95)),
    'vs baseline': (pct(p.times, 50) / base).toFixed(4),
    'median CPU ms': Math.round(pct(p.cpu, 50)),
    'peak RSS MiB': Math.round(p.peak),
    detail: p.extra,
  }));
  console.table(rows);
  console.log(`load average at the end: ${(await readFile('/proc/loadavg', 'utf8').catch(() => '?')).split(' ').slice(0, 3).join(' ')}`);
  console.log(`targets: warm rescan < 200 ms (${Math.round(pct(warm.times, 50))}), cold scan < 5000 ms (${Math.round(pct(cold.times, 50))}), peak RSS < 300 MiB (${Math.round(Math.max(cold.peak, warm.peak, warmDisk.peak, grown.peak))})`);
  if (!keep) await rm(root, { recursive: true, force: true });
  else console.log(`corpus kept in ${root}`);
}

await main();
