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
 *   npx tsx --expose-gc bench/importers/index-save.ts --index=/tmp/is-data/importers-candidates.idx --before-src=/tmp/is-before/src --runs=15 [--encrypt]
 *
 * --encrypt: each tree saves into an encrypted store of its own (opened by that tree's openStore
 * with a key held in memory), so the index is sealed as in an encrypted data directory (issue 17).
 * The sealed bytes differ at every save (fresh nonces and file ids): each is read back instead.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as IndexModule from '../../src/core/importers/candidate-index.js';
import type * as TextsModule from '../../src/core/importers/entry-texts.js';
import type * as StoreModule from '../../src/core/store/index.js';
import type * as KeyStoreModule from '../../src/core/store/at-rest/test-support/memory-key-store.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const indexFile = resolve(args.get('index') ?? '/tmp/is-data/importers-candidates.idx');
const beforeSrc = args.get('before-src');
const runs = Number(args.get('runs') ?? 15);
const encrypt = args.has('encrypt');

interface Tree {
  label: string;
  /** Where this tree saves (an encrypted store's folder with --encrypt). */
  dir: string;
  save: (file: string) => Promise<void>;
  /** Entries read back from `file` by this tree (null: refused). */
  readBack: (file: string) => Promise<number | null>;
  close: () => Promise<void>;
}

/** A tree's saveCandidateIndex over entries made by its own entryOf (its encode recognizes only its own entry class). */
async function treeOf(label: string, src: string, dir: string): Promise<Tree> {
  const index = (await import(pathToFileURL(join(src, 'core/importers/candidate-index.ts')).href)) as typeof IndexModule;
  const { EntryTexts } = (await import(pathToFileURL(join(src, 'core/importers/entry-texts.ts')).href)) as typeof TextsModule;
  const { SCAN_TEXT_CHUNK_BYTES } = (await import(pathToFileURL(join(src, 'core/importers/entry-texts.ts')).href)) as typeof TextsModule;
  const read = index.decodeCandidateIndexWithMeta(await readFile(indexFile));
  if (!read) throw new Error(`${indexFile}: not an index this tree reads (version or damage)`);
  const texts = new EntryTexts(SCAN_TEXT_CHUNK_BYTES);
  const entries = read.entries.map((e) => index.entryOf(e.path, e.source, e.size, e.mtimeMs, e.skip === null ? e.candidate() : null, e.skip, e.totals, texts));
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let close = async (): Promise<void> => undefined;
  if (encrypt) {
    const { openStore } = (await import(pathToFileURL(join(src, 'core/store/index.ts')).href)) as typeof StoreModule;
    const { memoryKeyStore } = (await import(pathToFileURL(join(src, 'core/store/at-rest/test-support/memory-key-store.ts')).href)) as typeof KeyStoreModule;
    const store = await openStore(dir, { keyStore: memoryKeyStore() });
    if (store.atRest.state !== 'on') throw new Error(`${label}: the store did not turn encrypted (${store.atRest.state})`);
    close = () => store.close();
  }
  return { label, dir, save: (file) => index.saveCandidateIndex(file, entries, read.meta), readBack: async (file) => (await index.readCandidateIndex(file))?.entries.length ?? null, close };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-index-save-'));
  const trees = [await treeOf('after (this tree)', resolve(import.meta.dirname, '..', '..', 'src'), join(dir, 'after'))];
  if (beforeSrc) trees.unshift(await treeOf('before (--before-src)', resolve(beforeSrc), join(dir, 'before')));
  const cpu: Record<string, number[]> = Object.fromEntries(trees.map((t) => [t.label, []]));
  const bytes: Record<string, Buffer> = {};
  const load = async () => (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
  const readBack: Record<string, number | null> = {};
  console.log(`index ${indexFile}${encrypt ? ', sealed (encrypted stores)' : ''}; load average ${await load()}`);
  try {
    // Two rounds first, not counted: V8 optimizes the encode's per-entry functions in the first saves.
    for (let r = -2; r < runs; r++) {
      for (const t of trees) {
        const file = join(t.dir, 'importers-candidates.idx');
        // The garbage of the other tree's save is collected first, not during this one (run with --expose-gc).
        (globalThis as { gc?: () => void }).gc?.();
        const start = process.cpuUsage();
        await t.save(file);
        const used = process.cpuUsage(start);
        if (r >= 0) cpu[t.label]!.push((used.user + used.system) / 1000);
        bytes[t.label] = await readFile(file);
        if (r === runs - 1) readBack[t.label] = await t.readBack(file);
      }
    }
  } finally {
    for (const t of trees) await t.close();
    await rm(dir, { recursive: true, force: true });
  }
  const base = cpu[trees[0]!.label]!;
  console.table(trees.map((t) => ({ tree: t.label, runs: cpu[t.label]!.length, 'CPU ms (median)': Math.round(median(cpu[t.label]!)), 'min': Math.round(Math.min(...cpu[t.label]!)), 'ratio to first': (median(cpu[t.label]!) / median(base)).toFixed(2), ...(encrypt ? { 'entries read back': readBack[t.label] } : { 'bytes equal to first': bytes[t.label]!.equals(bytes[trees[0]!.label]!) }) })));
  console.log(`load average at the end: ${await load()}`);
}

await main();
