/**
 * Issue 15: the persist at the end of a cold `baton list` (the index encoded and written, on one
 * core after every file is read), by CPU: saveCandidateIndex of a scan's entries, this tree's
 * against another tree's (--before-src), alternated in one process so both see the same load.
 *
 * The entries are made as a cold scan makes them: each tree's own entryOf (fresh entries whose texts
 * share one EntryTexts' chunks) from the candidates of an index a listing wrote (--index). Each
 * save writes a fresh file in a temp folder (temp → write → fsync → rename, as in a listing); the
 * figure is the thread's CPU (process.cpuUsage), not the fsync's wait.
 *
 *   rm -rf /tmp/is-data && HOME=<corpus>/home BATON_HOME=/tmp/is-data node bin/baton.js list --json --no-host > /dev/null
 *   git archive <rev> src | tar x -C /tmp/is-before
 *   npx tsx --expose-gc bench/importers/index-save.ts --index=/tmp/is-data/importers-candidates.idx --before-src=/tmp/is-before/src --runs=15
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as IndexModule from '../../src/core/importers/candidate-index.js';
import type * as TextsModule from '../../src/core/importers/entry-texts.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const indexFile = resolve(args.get('index') ?? '/tmp/is-data/importers-candidates.idx');
const beforeSrc = args.get('before-src');
const runs = Number(args.get('runs') ?? 15);

interface Tree {
  label: string;
  save: (file: string) => Promise<void>;
}

/** A tree's saveCandidateIndex over entries made by its own entryOf (its encode recognizes only its own entry class). */
async function treeOf(label: string, src: string): Promise<Tree> {
  const index = (await import(pathToFileURL(join(src, 'core/importers/candidate-index.ts')).href)) as typeof IndexModule;
  const { EntryTexts } = (await import(pathToFileURL(join(src, 'core/importers/entry-texts.ts')).href)) as typeof TextsModule;
  const { SCAN_TEXT_CHUNK_BYTES } = (await import(pathToFileURL(join(src, 'core/importers/entry-texts.ts')).href)) as typeof TextsModule;
  const read = index.decodeCandidateIndexWithMeta(await readFile(indexFile));
  if (!read) throw new Error(`${indexFile}: not an index this tree reads (version or damage)`);
  const texts = new EntryTexts(SCAN_TEXT_CHUNK_BYTES);
  const entries = read.entries.map((e) => index.entryOf(e.path, e.source, e.size, e.mtimeMs, e.skip === null ? e.candidate() : null, e.skip, e.totals, texts));
  return { label, save: (file) => index.saveCandidateIndex(file, entries, read.meta) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const trees = [await treeOf('after (this tree)', resolve(import.meta.dirname, '..', '..', 'src'))];
  if (beforeSrc) trees.unshift(await treeOf('before (--before-src)', resolve(beforeSrc)));
  const dir = await mkdtemp(join(tmpdir(), 'baton-index-save-'));
  const cpu: Record<string, number[]> = Object.fromEntries(trees.map((t) => [t.label, []]));
  const bytes: Record<string, Buffer> = {};
  const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  console.log(`index ${indexFile}; load average ${await load()}`);
  try {
    // Two rounds first, not counted: V8 optimizes the encode's per-entry functions in the first saves.
    for (let r = -2; r < runs; r++) {
      for (const t of trees) {
        const file = join(dir, `${trees.indexOf(t)}.idx`);
        // The garbage of the other tree's save is collected first, not during this one (run with --expose-gc).
        (globalThis as { gc?: () => void }).gc?.();
        const start = process.cpuUsage();
        await t.save(file);
        const used = process.cpuUsage(start);
        if (r >= 0) cpu[t.label]!.push((used.user + used.system) / 1000);
        bytes[t.label] = await readFile(file);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const base = cpu[trees[0]!.label]!;
  console.table(trees.map((t) => ({ tree: t.label, runs: cpu[t.label]!.length, 'CPU ms (median)': Math.round(median(cpu[t.label]!)), 'min': Math.round(Math.min(...cpu[t.label]!)), 'ratio to first': (median(cpu[t.label]!) / median(base)).toFixed(2), 'bytes equal to first': bytes[t.label]!.equals(bytes[trees[0]!.label]!) })));
  console.log(`load average at the end: ${await load()}`);
}

await main();
