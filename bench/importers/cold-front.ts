/**
 * Issue 15, the cold listing's one-core front: what the scan's thread does before its worker's
 * first task, measured alone and in one process, old and new alternated round by round so both
 * see the same load and the same page cache:
 *  - "sequential": discoverSessionFiles (Claude's folders, then Codex's) then statAll of every
 *    file, as readAndSettle did up to the sixteenth sitting;
 *  - "side by side": both tools' folders listed at once (discoverSessionFiles of each tool,
 *    joined in the sequential order), then statAll: tried in the sixteenth sitting, not kept;
 *  - "overlapped": both tools listed at once, each tool's files stat'ed as soon as its folders are
 *    listed: tried in the sixteenth sitting (commit d0e57b4), not kept;
 *  - "lookups": the new-file count over every file with an empty digest cache, by path in its
 *    entries (before) and through stateLookup (NO_STATES, now), each on fresh path strings.
 * Wall ms and this thread's CPU ms (/proc/self/task/<pid>/stat, 10 ms ticks; summed over rounds).
 *
 *   npx tsx bench/importers/cold-front.ts --dir=/tmp/c15f/full --rounds=21
 *
 * Reads <dir>/home only (no data directory, nothing written).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { discoverSessionFiles, type DiscoverResult, type FoundFile } from '../../src/core/importers/discover.js';
import { locateAgentDirs } from '../../src/core/importers/locate.js';
import { nodeImportReader, statAll, type ImportStat } from '../../src/core/importers/reader.js';
import { emptyCache, stateLookup } from '../../src/core/importers/scan-cache.js';
import { isNewFile } from '../../src/core/importers/scan-pooling.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const rounds = Number(args.get('rounds') ?? 21);
const dirs = locateAgentDirs({ HOME: join(dir, 'home') });

/** Tools' discoveries as one, in the sequential order: files, folders, skip reasons in the order first met. */
function joined(parts: readonly DiscoverResult[]): DiscoverResult {
  const out: DiscoverResult = { files: [], skipped: {}, folders: [] };
  for (const part of parts) {
    out.files.push(...part.files);
    out.folders.push(...part.folders);
    for (const [reason, n] of Object.entries(part.skipped)) out.skipped[reason] = (out.skipped[reason] ?? 0) + n;
  }
  return out;
}

const TOOLS = ['claude', 'codex'] as const;

function threadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Sample {
  wall: number;
  cpu: number;
}

async function timed(run: () => Promise<unknown>): Promise<Sample> {
  const cpu0 = threadCpuMs();
  const t0 = performance.now();
  await run();
  return { wall: performance.now() - t0, cpu: threadCpuMs() - cpu0 };
}

/** Fresh path strings, as discovery makes them (a lookup internalizes the string it is given). */
function freshFiles(files: readonly FoundFile[]): FoundFile[] {
  return files.map((f) => ({ ...f, path: `${f.path.slice(0, 1)}${f.path.slice(1)}` }));
}

async function main(): Promise<void> {
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`corpus ${dir}/home; load average ${load()}`);
  const base = await discoverSessionFiles(nodeImportReader, dirs);
  const baseStats = await statAll(nodeImportReader, base.files.map((f) => f.path));
  const samples: Record<string, Sample[]> = { sequential: [], 'side by side': [], overlapped: [], 'lookups, by path': [], 'lookups, stateLookup': [] };
  let checked = 0;
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (['sequential', 'side by side', 'overlapped'] as const) : (['overlapped', 'side by side', 'sequential'] as const);
    for (const arm of order) {
      samples[arm]!.push(
        await timed(async () => {
          if (arm === 'sequential') {
            const found = await discoverSessionFiles(nodeImportReader, dirs);
            await statAll(nodeImportReader, found.files.map((f) => f.path));
          } else if (arm === 'side by side') {
            const found = joined(await Promise.all(TOOLS.map((tool) => discoverSessionFiles(nodeImportReader, dirs, tool))));
            await statAll(nodeImportReader, found.files.map((f) => f.path));
          } else {
            const listed = TOOLS.map((tool) => discoverSessionFiles(nodeImportReader, dirs, tool));
            const stated = listed.map((part) => part.then((d) => statAll(nodeImportReader, d.files.map((f) => f.path))));
            joined(await Promise.all(listed));
            (await Promise.all(stated)).flat();
          }
        }),
      );
    }
    const cache = emptyCache();
    const [a, b] = [freshFiles(base.files), freshFiles(base.files)];
    samples['lookups, by path']!.push(
      await timed(async () => {
        for (let i = 0; i < a.length; i++) {
          const s = baseStats[i]!;
          const cached = cache.entries[a[i]!.path];
          if (!(s instanceof Error) && s.isFile && !a[i]!.compressed && s.size > 0 && !(cached && cached.digest.source === a[i]!.source)) checked++;
        }
      }),
    );
    const stateOf = stateLookup(cache);
    samples['lookups, stateLookup']!.push(
      await timed(async () => {
        for (let i = 0; i < b.length; i++) if (isNewFile(b[i]!, baseStats[i]! as ImportStat, stateOf)) checked++;
      }),
    );
  }
  const median = (v: number[]) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)]!;
  console.table(
    Object.entries(samples).map(([arm, s]) => ({
      arm,
      rounds: s.length,
      'wall ms (median)': Math.round(median(s.map((x) => x.wall)) * 10) / 10,
      'wall min': Math.round(Math.min(...s.map((x) => x.wall)) * 10) / 10,
      'thread CPU ms (sum / rounds)': Math.round((s.reduce((sum, x) => sum + x.cpu, 0) / s.length) * 10) / 10,
    })),
  );
  for (const arm of ['side by side', 'overlapped']) {
    const paired = samples[arm]!.map((o, k) => o.wall - samples.sequential![k]!.wall);
    console.log(`${arm} − sequential, paired by round: median ${Math.round(median(paired))} ms wall, lower in ${paired.filter((d) => d < 0).length} of ${paired.length} rounds`);
  }
  console.log(`${base.files.length} files, ${checked / rounds / 2} new per count; load average at the end: ${load()}`);
}

await main();
