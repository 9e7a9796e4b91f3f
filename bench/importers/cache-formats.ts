/**
 * Warm-cache formats for the CLI's own scan (issue 15), on a corpus already scanned once (its
 * data dir holds importers-cache.json and importers-candidates.idx):
 *   - the digest cache as JSON (what every `baton list` parsed before: the baseline);
 *   - JSON lines of the listed fields, every line parsed;
 *   - the compact index (candidate-index.ts): columns parsed, rows copied as bytes, lazily.
 * Each is read from disk in full and made ready to print every row.
 *
 * Then the whole `baton list --json` body (written to a sink that drops it), and its first 50
 * rows, from the index read two ways: every entry decoded and grouped (what version 2 of the
 * index allowed: the baseline), and version 3's head only, the groups copied pre-rendered.
 *
 *   npx tsx bench/importers/cache-formats.ts --data=/tmp/baton-c15/full/data [--runs=7]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { candidateIndexFileFor, decodeCandidateIndexWithMeta } from '../../src/core/importers/candidate-index.js';
import { forgetScanCacheMemo, loadScanCache } from '../../src/core/importers/scan-cache.js';
import { groupItems, limitGroups, type ListGroup } from '../../src/core/importers/candidate-list.js';
import { listingOfIndex } from '../../src/core/importers/index-listing.js';
import { writeListJson } from '../../src/core/importers/list-json.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const data = args.get('data') ?? '/tmp/baton-c15/full/data';
const runs = Number(args.get('runs') ?? 7);
const cacheFile = join(data, 'importers-cache.json');
const indexFile = candidateIndexFileFor(cacheFile);
const linesFile = join(data, 'bench-candidates.jsonl');

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(name: string, bytes: number, body: () => Promise<number>): Promise<Record<string, unknown>> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const t0 = performance.now();
    rows = await body();
    times.push(performance.now() - t0);
  }
  return { format: name, 'file MB': (bytes / 2 ** 20).toFixed(1), rows, 'median ms': median(times).toFixed(1), 'min ms': Math.min(...times).toFixed(1) };
}

const index = decodeCandidateIndexWithMeta(await readFile(indexFile))?.entries;
if (!index) throw new Error(`${indexFile}: no index; run \`baton list\` on the corpus first`);
await writeFile(linesFile, index.map((e) => JSON.stringify({ path: e.path, size: e.size, mtimeMs: e.mtimeMs, ...(e.skip === null ? { row: JSON.parse(e.rowText()) } : { skip: e.skip }) })).join('\n'));
const size = async (f: string) => (await readFile(f)).length;

const table = [
  await time('baseline: digest cache JSON (before)', await size(cacheFile), async () => {
    forgetScanCacheMemo();
    return Object.keys((await loadScanCache(cacheFile)).entries).length;
  }),
  await time('JSON lines, listed fields only', await size(linesFile), async () => {
    const text = await readFile(linesFile, 'utf8');
    let n = 0;
    let bytes = 0;
    for (const line of text.split('\n')) {
      const r = JSON.parse(line) as { row?: unknown };
      if (r.row) bytes += JSON.stringify(r.row).length; // ready to print, as the index rows are
      n++;
    }
    return bytes > 0 ? n : 0;
  }),
  await time('compact index: columns + lazy rows', await size(indexFile), async () => {
    const entries = decodeCandidateIndexWithMeta(await readFile(indexFile))!.entries;
    let bytes = 0;
    for (const e of entries) if (e.skip === null) bytes += e.rowText().length;
    return bytes > 0 ? entries.length : 0;
  }),
];
console.table(table);

/** Writes the listing's JSON to a sink that only counts bytes. */
async function printed(groups: readonly ListGroup[]): Promise<number> {
  let bytes = 0;
  await writeListJson({ write: (c) => ((bytes += c.length), true), once: () => undefined }, { version: 1 }, groups, {});
  return bytes;
}
const listingTable = [];
for (const limit of [undefined, 50]) {
  const cut = (g: ListGroup[]) => (limit === undefined ? g : limitGroups(g, limit));
  listingTable.push(
    await time(`baseline: entries decoded + grouped${limit ? `, --limit ${limit}` : ''}`, await size(indexFile), async () => {
      const entries = decodeCandidateIndexWithMeta(await readFile(indexFile))!.entries;
      return printed(cut(groupItems(entries.filter((e) => e.skip === null))));
    }),
    await time(`index v3: head + pre-rendered groups${limit ? `, --limit ${limit}` : ''}`, await size(indexFile), async () => {
      const listing = listingOfIndex(await readFile(indexFile), 0, 0)!;
      return printed(cut(listing.groups));
    }),
  );
}
console.table(listingTable.map(({ rows, ...r }) => ({ ...r, 'bytes printed': rows })));
console.log(`load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
