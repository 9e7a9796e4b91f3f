/**
 * Issue 15, where a new host's CPU goes before its first `agents:list`: reads the V8 CPU profiles
 * host-start-cpu.ts --cpu-prof=DIR wrote, cuts each at its `.cut` time (the answer, on the same
 * monotonic clock), and sums the samples' self time by what ran: V8's collector, `(program)` (the
 * engine outside JavaScript: compiling, the code cache's deserialisation, the loop's native work),
 * and JavaScript by the source file the bundle's source map names (src/…, a package, node:).
 * Medians over the profiles of each build (file names `before-*` / `this-*`).
 *
 *   npx tsx bench/renderer/cpu-profile-split.ts DIR [--top=25]
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2]!;
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
const consumers = new Map<string, SourceMapConsumer | null>();

/** The source map beside a bundle (its `.map`), or null where there is none. */
async function consumerFor(url: string): Promise<SourceMapConsumer | null> {
  if (!consumers.has(url)) {
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    consumers.set(url, existsSync(`${file}.map`) ? await new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : null);
  }
  return consumers.get(url)!;
}

/** What a sample's frame counts as: an engine bucket, or the source file (package) it came from. */
async function bucketOf(frame: ProfileNode['callFrame']): Promise<{ file: string; fn: string }> {
  if (frame.functionName.startsWith('(')) return { file: frame.functionName, fn: frame.functionName };
  if (!frame.url) return { file: '(native)', fn: frame.functionName || '(anonymous)' };
  if (frame.url.startsWith('node:')) return { file: frame.url.split('/').slice(0, 2).join('/'), fn: frame.functionName };
  const consumer = await consumerFor(frame.url);
  if (!consumer) return { file: frame.url.replace(/^.*\/(dist|bin|node_modules)\//, '$1/'), fn: frame.functionName };
  const at = consumer.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  const source = (at.source ?? '?').replace(/^(\.\.\/)+/, '');
  const file = source.includes('node_modules/') ? `pkg:${source.split('node_modules/').pop()!.split('/').slice(0, source.includes('node_modules/@') ? 2 : 1).join('/')}` : source;
  return { file, fn: `${source}:${at.line ?? '?'} ${at.name ?? frame.functionName}` };
}

async function split(file: string): Promise<{ byFile: Map<string, number>; byFn: Map<string, number>; totalMs: number }> {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const cutFile = join(dir, `${file}.cut`);
  const cut = existsSync(cutFile) ? Number(readFileSync(cutFile, 'utf8')) : Infinity;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFile = new Map<string, number>();
  const byFn = new Map<string, number>();
  let at = profile.startTime;
  let totalMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (at > cut) break;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const ms = next / 1000;
    const { file: f, fn } = await bucketOf(nodes.get(profile.samples[i]!)!.callFrame);
    if (f === '(idle)') continue;
    byFile.set(f, (byFile.get(f) ?? 0) + ms);
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    totalMs += ms;
  }
  return { byFile, byFn, totalMs };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
const builds = [...new Set(files.map((f) => f.split('-')[0]!))];
const tables: Record<string, Map<string, number[]>> = {};
const fnTables: Record<string, Map<string, number[]>> = {};
for (const build of builds) {
  const mine = files.filter((f) => f.startsWith(`${build}-`));
  const byFile = new Map<string, number[]>();
  const byFn = new Map<string, number[]>();
  for (const f of mine) {
    const s = await split(f);
    for (const [k, v] of s.byFile) byFile.set(k, [...(byFile.get(k) ?? []), v]);
    for (const [k, v] of s.byFn) byFn.set(k, [...(byFn.get(k) ?? []), v]);
    byFile.set('= busy, all', [...(byFile.get('= busy, all') ?? []), s.totalMs]);
  }
  // A bucket absent from a profile counted 0 there.
  for (const m of [byFile, byFn]) for (const [k, v] of m) m.set(k, [...v, ...Array(mine.length - v.length).fill(0)]);
  tables[build] = byFile;
  fnTables[build] = byFn;
  console.log(`${build}: ${mine.length} profiles`);
}
const keys = [...new Set(Object.values(tables).flatMap((m) => [...m.keys()]))];
const rows = keys
  .map((k) => ({ bucket: k, ...Object.fromEntries(builds.map((b) => [b, Math.round(median(tables[b]!.get(k) ?? [0]))])) }))
  .sort((a, b) => Number((b as Record<string, unknown>)[builds[0]!]) - Number((a as Record<string, unknown>)[builds[0]!]));
console.log('self time until the first agents:list, ms (median per build)');
console.table(rows.slice(0, top));
const fnKeys = [...new Set(Object.values(fnTables).flatMap((m) => [...m.keys()]))];
const fnRows = fnKeys
  .map((k) => ({ fn: k.slice(0, 90), ...Object.fromEntries(builds.map((b) => [b, Math.round(median(fnTables[b]!.get(k) ?? [0]))])) }))
  .sort((a, b) => Number((b as Record<string, unknown>)[builds[0]!]) - Number((a as Record<string, unknown>)[builds[0]!]));
console.log('by function, ms');
console.table(fnRows.slice(0, top));
