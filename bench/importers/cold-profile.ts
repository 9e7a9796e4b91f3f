/**
 * Issue 15: where a cold `baton list --json --no-host` spends its CPU, every thread of the process
 * (main, the scan workers, V8's platform threads, libuv's pool), by thread, by phase and by kind.
 *
 * Runs the listing under `perf record -F 999 -g` with V8's perf map (`--perf-basic-prof
 * --interpreted-frames-native-stack`, which the scan workers inherit), then reads `perf script`.
 * A sample is CPU a thread used (a thread waiting for a core is not sampled), so the totals are
 * CPU, not wall. Each sample's phase is the innermost JavaScript function of its stack that names
 * one (table PHASES); GC and compilation are phases of their own wherever they run.
 *
 *   npx tsx bench/importers/cold-profile.ts --dir=<corpus copy> [--bin=bin/baton.js] [--perf-data=FILE] [--top=25] [--why] [--node-flags="…"]
 *
 * Readable names need an unminified build (esbuild `minify: false`); a minified one is profiled
 * too, its JavaScript phases then mostly "JavaScript, other". --perf-data: summarize a recorded
 * run again instead of recording one. The corpus (<dir>/home) is only read; the data directory is
 * fresh per run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = new Map(process.argv.slice(2).map((a) => { const [k, ...v] = a.replace(/^--/, '').split('='); return [k!, v.join('=')] as [string, string]; }));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const bin = resolve(args.get('bin') ?? join(import.meta.dirname, '..', '..', 'bin', 'baton.js'));
const top = Number(args.get('top') ?? 25);
/** --node-flags="--a --b": more V8/Node flags for the listing (e.g. a --turbo-filter to see what one function's optimization costs). */
const nodeFlags = (args.get('node-flags') ?? '').split(' ').filter((f) => f.length > 0);

/** Innermost JavaScript function name → phase; the first row whose pattern matches wins. */
const PHASES: Array<[RegExp, string]> = [
  [/^(discoverSessionFiles|discoverClaude|discoverCodex|listDir|startFolder|folderMtime|readdir)$/, 'discovery: readdir'],
  [/^(statMany|statAll|statForFirstRows)$/, 'discovery: stat'],
  [/^(readPrefixes|readSmallFiles|readFully)$/, 'read'],
  [/^parseLine$/, 'JSON.parse'],
  [/^splitLines$/, 'split into lines'],
  [/^(feedDigest|feedClaude|feedCodex|feedAll|settleDigest|lineKey|finish|checkHashAt|sourceFingerprint|sha256Hex|toTitle|laterIso|isoOf)$/, 'digest'],
  [/^(redactStates|redactStrings|redactValue|collectStrings|extraSpans|note|findSecrets|scanText)$/i, 'redaction'],
  [/^(summarizeFile|summarizeJobs|summarizeCounted|summarizeForScan)$/, 'summarize (rest)'],
  [/^(entryOf|settle|shared|rowText|extrasText|candidateFromState|candidateWithNote)$|EntryTexts/, 'index entries'],
  [/^(openScanCacheWriter|add|commit|append|flush|writeOut|syncDir)$/, 'digest cache write'],
  [/^(saveCandidateIndex|encodeCandidateIndex|encodeCandidateIndexParts|columnsJson|listingBlock|extrasPieces|writeParts|addColumns|groupItems|copyRowInto|rowLengthOf|nameStart|addFolder|extrasLengthOf)$/, 'index write'],
  [/^(writeListJson|chunkIsFree|groupOpenText|groupCloseText|itemOfEntry|countItems|limitGroups)$/, 'listing output'],
  [/^(summarizeInPool|takeOut|spread|run|dispatch|pump|startScanPool|resultValue|isTaskReply)$/, 'pool (main side)'],
  [/^(readAndSettle|scanOne|worker|countSettled|readOrder|scanCandidateIndexFull|redactFreshStates|releaseSettled)$/, 'scan loop'],
];

/** Native frames that make a sample GC or compilation, whatever JavaScript is below. */
const GC = /v8::internal::(Heap::|Scavenger|ScavengeJob|MarkCompact|ConcurrentMarking|Sweeper|MinorMarkCompact|IncrementalMarking|GCTracer|MarkingVisitor|ArrayBufferSweeper|MemoryAllocator::Unmapper)|cppgc::/;
const COMPILE = /v8::internal::(compiler::|Compiler::|Parser::|PreParser|parsing::|baseline::|maglev::|interpreter::BytecodeGenerator|CodeGenerator|OptimizingCompileDispatcher|BackgroundCompileTask|LazyCompileDispatcher|CodeSerializer|ScriptCompiler)|v8::ScriptCompiler/;
const START = /node::(LoadEnvironment|StartExecution|Realm::ExecuteBootstrapper|BuiltinLoader|worker::Worker::Run\b.*$)|compileForInternalLoader|node::InitializeOncePerProcess|v8::internal::Snapshot::/;

interface Sample {
  tid: number;
  frames: string[];
}

function record(): string {
  const work = mkdtempSync(join(tmpdir(), 'baton-cold-profile-'));
  const data = join(work, 'perf.data');
  const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(work, 'data'), XDG_RUNTIME_DIR: join(work, 'run') };
  spawnSync('mkdir', ['-p', '-m', '700', env.BATON_HOME, env.XDG_RUNTIME_DIR]);
  const run = spawnSync('perf', ['record', '-F', '999', '-g', '-o', data, '--', process.execPath, '--perf-basic-prof', '--interpreted-frames-native-stack', ...nodeFlags, bin, 'list', '--json', '--no-host'], { env, cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`perf record failed (${run.status}): ${run.stderr.toString().slice(-400)}`);
  return data;
}

function samplesOf(perfData: string): { samples: Sample[]; pid: number } {
  const out = spawnSync('perf', ['script', '-i', perfData, '-F', 'pid,tid,ip,sym'], { maxBuffer: 2 ** 31 - 1 });
  if (out.status !== 0) throw new Error(`perf script failed: ${out.stderr.toString().slice(-400)}`);
  const samples: Sample[] = [];
  let pid = 0;
  for (const block of out.stdout.toString('utf8').split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.length > 0);
    const head = lines.shift();
    if (!head) continue;
    const m = /^\s*(\d+)\/(\d+)/.exec(head);
    if (!m) continue;
    pid ||= Number(m[1]);
    const frames = lines.map((l) => l.trim().replace(/^[0-9a-f]+\s+/, ''));
    samples.push({ tid: Number(m[2]), frames });
  }
  return { samples, pid };
}

/**
 * Each thread's role, from any of its samples: a sample whose stack was cut short (libc calls
 * without frame pointers, e.g. a worker's open()) still counts for the thread it ran on.
 */
function threadsOf(samples: readonly Sample[], pid: number): Map<number, string> {
  const roles = new Map<number, string>([[pid, 'main']]);
  for (const s of samples) {
    if (roles.has(s.tid)) continue;
    const chain = s.frames.join('\n');
    if (chain.includes('node::worker::Worker::Run')) roles.set(s.tid, `scan worker ${s.tid}`);
    else if (/uv__worker|worker \(libuv\)|uv_.*threadpool/.test(chain)) roles.set(s.tid, 'libuv pool');
    else if (/v8::platform|WorkerThreadsTaskRunner|PlatformWorkerThread|DelayedTaskScheduler/.test(chain)) roles.set(s.tid, 'V8 platform threads');
  }
  return roles;
}

function jsName(frame: string): string | null {
  const m = /^JS:[*^~+]?(\S*)/.exec(frame) ?? /^(?:LazyCompile|Function|Builtin|InterpretedFunction):[*^~+]?(\S*)/.exec(frame);
  return m ? m[1]!.split('.').pop()! || null : null;
}

/** The phase, and the frame that decided it (--why). */
function phaseOf(s: Sample): [string, string] {
  const gc = s.frames.find((f) => GC.test(f));
  if (gc) return ['GC', gc];
  const compile = s.frames.find((f) => COMPILE.test(f));
  if (compile) return ['compile (parse, bytecode, optimize)', compile];
  // Before the JavaScript names: an optimized splitLines holds parseLine inlined.
  if (s.frames.some((f) => /Builtin_JsonParse/.test(f))) return ['JSON.parse', 'Builtin_JsonParse'];
  for (const f of s.frames) {
    const name = jsName(f);
    if (name === null) continue;
    for (const [pattern, phase] of PHASES) if (pattern.test(name)) return [phase, name];
  }
  return [restOf(s), s.frames[0] ?? '?'];
}

function restOf(s: Sample): string {
  if (s.frames.some((f) => /Serializer|Deserializer|ValueSerializer|ValueDeserializer|MessagePort|postMessage/.test(f))) return 'structured clone';
  if (s.frames.some((f) => START.test(f))) return 'start-up (bootstrap, bundle load)';
  if (s.frames.some((f) => f.startsWith('JS:'))) return 'JavaScript, other';
  if (s.frames[0]?.startsWith('[') || /^(__|entry_SYSCALL|do_syscall|exc_page_fault)/.test(s.frames[0] ?? '')) return 'kernel, other';
  return 'native, other';
}

function kindOf(s: Sample): string {
  const leaf = s.frames[0] ?? '';
  if (/^(0x)?ffffffff|^\[k\]/.test(leaf) || /(entry_SYSCALL|do_syscall_64|exc_page_fault|asm_|__x64_sys|_raw_spin|copy_to|copy_user|finish_task_switch)/.test(leaf)) return 'kernel';
  if (GC.test(leaf) || s.frames.some((f) => GC.test(f))) return 'GC';
  if (s.frames.some((f) => COMPILE.test(f))) return 'compile';
  if (/JsonParser|Builtin_JsonParse/.test(leaf) || (/StringTable|InternalizeString|ComputeAndSetRawHash|Factory::|TransitionArray|TransitionsAccessor|LookupIterator|JSObject::/.test(leaf) && s.frames.some((f) => /JsonParser/.test(f)))) return 'JSON.parse (incl. keys, objects)';
  if (/JsonStringifier/.test(leaf)) return 'JSON.stringify';
  if (/^JS:/.test(leaf)) return 'JavaScript (JIT)';
  if (/^Builtins_|^Builtin:/.test(leaf)) return 'V8 builtins';
  if (/malloc|free|memmove|memcpy|memset|memcmp|memchr/.test(leaf)) return 'libc (malloc, memcpy)';
  if (/^v8::/.test(leaf)) return 'V8 runtime (objects, strings, maps)';
  if (/^node::|^uv_|^uv__/.test(leaf)) return 'Node / libuv';
  if (/sha256|simdutf|ossl|OPENSSL|EVP_/.test(leaf)) return 'hash, UTF-8 (native)';
  return 'other native';
}

function table(title: string, counts: Map<string, number>, total: number, limit = Infinity): void {
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, limit).map(([key, n]) => ({ [title]: key, 'ms CPU': n, share: `${((n / total) * 100).toFixed(1)} %` }));
  console.table(rows);
}

function bump(m: Map<string, number>, key: string, by = 1): void {
  m.set(key, (m.get(key) ?? 0) + by);
}

const perfData = args.get('perf-data') ?? record();
const { samples, pid } = samplesOf(perfData);
const roles = threadsOf(samples, pid);
// -F 999: one sample per ~1.001 ms of a thread's CPU.
const byThread = new Map<string, number>();
const byPhase = new Map<string, number>();
const byKind = new Map<string, number>();
const byLeaf = new Map<string, number>();
const phaseByThread = new Map<string, Map<string, number>>();
const whyByPhase = new Map<string, Map<string, number>>();
for (const s of samples) {
  const thread = roles.get(s.tid) ?? 'other threads';
  const threadClass = thread.startsWith('scan worker') ? 'scan workers' : thread;
  const [phase, why] = phaseOf(s);
  const reasons = whyByPhase.get(phase) ?? new Map<string, number>();
  bump(reasons, why.slice(0, 90));
  whyByPhase.set(phase, reasons);
  bump(byThread, thread);
  bump(byPhase, phase);
  bump(byKind, kindOf(s));
  bump(byLeaf, (s.frames[0] ?? '?').slice(0, 110));
  const row = phaseByThread.get(phase) ?? new Map<string, number>();
  bump(row, threadClass);
  phaseByThread.set(phase, row);
}
const total = samples.length;
console.log(`${perfData}: ${total} samples (≈ ms of CPU) in ${byThread.size} threads; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
table('thread', byThread, total);
const classes = ['main', 'scan workers', 'V8 platform threads', 'libuv pool', 'other threads'];
console.table(
  [...byPhase].sort((a, b) => b[1] - a[1]).map(([phase, n]) => ({ phase, 'ms CPU': n, share: `${((n / total) * 100).toFixed(1)} %`, ...Object.fromEntries(classes.map((c) => [c, phaseByThread.get(phase)?.get(c) ?? 0])) })),
);
table('kind', byKind, total);
table('leaf symbol', byLeaf, total, top);
if (args.has('why')) for (const [phase, reasons] of whyByPhase) table(`${phase}: deciding frame`, reasons, total, 8);
console.log(`perf data kept: ${perfData}`);
