// The whole `baton handoff` process, Node start-up included, for a 150- and a 10,000-message
// session, against the floor of starting Node itself, measured in the same run (issue 20, "CLI
// start-up"). Each case runs in turn within one round, so a change of load hits all of them.
// Wall time from this process; CPU of the child (and of the git processes it waits for) from
// `perf stat -e task-clock` (µs; /usr/bin/time's user + system, in 10 ms steps, where perf is missing).
//
//   npm run build:node && npx tsx bench/handoff/cli-process.ts [runs] [--before=OTHER/bin/baton.js] [--profile=DIR] [--quick] [--trace-clean]
//
// Each build hands off to its own receiver (`startHostServices`, as `baton serve` runs it) in a
// process of its own (receiver-host.ts), as on a person's machine: the bench process does
// nothing while a CLI runs, so the host's work after its answer cannot delay seeing the exit.
// `host CPU mean`: CPU the case's receiver used per run (/proc ticks, 10 ms): a hosted handoff
// (src/cli/handoff-fast.ts) lands in the host, so the CLI's own CPU is only part of the cost.
// --before: another build of the CLI (a tree with bin/, dist/ and node_modules linked) timed
// in the same rounds, against the receiver of that tree's src/ when it has one. The per-part breakdown comes from this build's BATON_PHASE_TRACE
// (src/core/perf/phase-trace.ts), in separate runs so the tracing itself is not in the table.
// --profile: also writes a CPU profile (`node --cpu-prof`) of one 150-message handoff to DIR and
// prints the Node internal modules it loads beyond `node -e ""` (process.moduleLoadList).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { PHASE_TRACE_ENV, type PhaseTraceLine } from '../../src/core/perf/phase-trace.js';
import { percentile, printTable, summarize } from '../stats.js';
import { makeBenchRepo } from './bench-repo.js';

const RUNS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 30);
const BEFORE = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
/** --quick: the floor and the 150-message cases only (an A/B of one change). */
const QUICK = process.argv.includes('--quick');
/** --trace-clean: the traced runs (the per-part tables) hand off from the clean work tree, not the dirty one. */
const TRACE_CLEAN = process.argv.includes('--trace-clean');
const PROFILE_DIR = process.argv.find((a) => a.startsWith('--profile='))?.slice('--profile='.length);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const TIME = '/usr/bin/time';
const PERF = '/usr/bin/perf';
/** perf's task-clock: CPU time to the µs (the 10 ms steps of /usr/bin/time hide a change of a few ms). */
const usePerf = existsSync(PERF) && spawnSync(PERF, ['stat', '-x,', '-e', 'task-clock', 'true']).status === 0;

const root = await mkdtemp(join(tmpdir(), 'baton-bench-cli-'));
const dataDir = join(root, 'data');
const receivers: ChildProcess[] = [];

/** A receiver for one build, in its own process (receiver-host.ts), once it listens. */
async function startReceiver(data: string, src?: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'receiver-host.ts'), data, ...(src ? [src] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  receivers.push(child);
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().startsWith('ready')) throw new Error(`receiver for ${data} did not start: ${chunk.toString()}`);
  return child;
}

/**
 * CPU ms a receiver's process has used (/proc/PID/stat utime + stime, in 10 ms ticks): a hosted
 * handoff moves the landing into the host, so the CLI's CPU alone no longer tells the machine's
 * cost. Read around each run; its mean over the runs is the host's share (its work after an answer
 * lands in the next run's window, so the sum is right). NaN where /proc is missing.
 */
function hostCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

// A small repository with a commit and a changed file (bench-repo.ts).
const work = join(root, 'work');
await makeBenchRepo(work);
// The same repository with nothing changed: a handoff right after a commit.
const clean = join(root, 'clean');
execFileSync('git', ['clone', '-q', work, clean]);

async function conversation(count: number): Promise<string> {
  const file = join(root, `conv-${count}.jsonl`);
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}` }),
  );
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  /** CPU the case's receiver used during the run (and what it left from the run before). */
  hostCpuMs?: number;
}

/** One process: wall time seen from here, CPU from perf (or /usr/bin/time); async, so the in-process receiver keeps answering. */
function time(args: string[], env: Record<string, string> = {}): Promise<Sample> {
  const cpuFile = join(root, 'cpu.txt');
  const started = process.hrtime.bigint();
  const command = usePerf ? [PERF, 'stat', '-x,', '-e', 'task-clock', '-o', cpuFile] : [TIME, '-f', '%U %S', '-o', cpuFile];
  return new Promise((resolve, reject) =>
    execFile(command[0]!, [...command.slice(1), process.execPath, ...args], { cwd: work, env: { ...process.env, BATON_HOME: caseHome(args), ...env } }, async (error, stdout, stderr) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (error) return reject(new Error(`${args.join(' ')} failed: ${stdout}${stderr}`));
      resolve({ wallMs, cpuMs: cpuMsOf(await readFile(cpuFile, 'utf8')) });
    }),
  );
}

/** CPU ms from perf's CSV line (`63.94,msec,task-clock,…`) or /usr/bin/time's `user system` seconds. */
function cpuMsOf(text: string): number {
  if (usePerf) {
    const line = text.split('\n').find((l) => l.includes(',task-clock,'));
    if (!line) throw new Error(`perf stat wrote no task-clock line: ${text}`);
    return Number(line.split(',')[0]);
  }
  const [user, system] = text.trim().split(/\s+/).map(Number);
  return ((user ?? NaN) + (system ?? NaN)) * 1000;
}

function handoffArgs(bin: string, file: string, count: number, cwd = work): string[] {
  return [bin, 'handoff', '--cwd', cwd, '--title', `bench ${count}`, '--messages', file, '--no-launch', '--json'];
}

const beforeSrc = BEFORE ? resolve(dirname(resolve(BEFORE)), '..', 'src') : undefined;
const builds = [
  ...(BEFORE ? [{ name: 'before', bin: resolve(BEFORE), home: join(root, 'data-before'), src: beforeSrc && existsSync(beforeSrc) ? beforeSrc : undefined }] : []),
  { name: BEFORE ? 'after' : 'this build', bin: BIN, home: dataDir, src: undefined as string | undefined },
];
const receiverOf = new Map<string, ChildProcess>();
for (const build of builds) receiverOf.set(build.home, await startReceiver(build.home, build.src));
if (BEFORE && !builds[0]!.src) console.log(`(no src/ beside ${BEFORE}: its handoffs go to this tree's receiver)`);
const homeOf = (bin: string) => builds.find((b) => b.bin === bin)?.home ?? dataDir;
const cases: { name: string; args: string[]; runs: number }[] = [{ name: 'node -e "" (floor)', args: ['-e', ''], runs: RUNS }];
/** The data directory (and so the receiver) of the build a case runs. */
const caseHome = (args: string[]) => homeOf(args[0]!);
for (const count of QUICK ? [150] : [150, 10_000]) {
  const file = await conversation(count);
  for (const build of builds) cases.push({ name: `baton handoff, ${count} messages, ${build.name}`, args: handoffArgs(build.bin, file, count), runs: count > 1000 ? Math.max(3, Math.floor(RUNS / 5)) : RUNS });
}
for (const build of builds) cases.push({ name: `baton handoff, 150 messages, clean work tree, ${build.name}`, args: handoffArgs(build.bin, join(root, 'conv-150.jsonl'), 150, clean), runs: RUNS });
// Issue 15's listing, same rounds: with the host above running (the small fast-list bundle
// answers through it) and with --no-host (the whole CLI reads the store itself).
for (const build of QUICK ? [] : builds) {
  cases.push({ name: `baton list --json --no-agents --limit 50, host running, ${build.name}`, args: [build.bin, 'list', '--json', '--no-agents', '--limit', '50'], runs: RUNS });
  cases.push({ name: `baton list --json --no-agents --limit 50 --no-host, ${build.name}`, args: [build.bin, 'list', '--json', '--no-agents', '--limit', '50', '--no-host'], runs: RUNS });
}
// One untimed run of each, so the page cache holds the bundles and git's files.
for (const c of cases) await time(c.args);
const samples = new Map<string, Sample[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < RUNS; round++) {
  for (const c of cases) {
    if (round >= c.runs) continue;
    const receiver = c.args[0] === '-e' ? undefined : receiverOf.get(caseHome(c.args))?.pid;
    const hostBefore = hostCpuMs(receiver);
    const sample = await time(c.args);
    samples.get(c.name)!.push({ ...sample, hostCpuMs: hostCpuMs(receiver) - hostBefore });
  }
}
const floor = samples.get(cases[0]!.name)!;
const floorWall = percentile(floor.map((s) => s.wallMs), 0.5);
const floorCpu = percentile(floor.map((s) => s.cpuMs), 0.5);
printTable(
  cases.map((c) => {
    const s = samples.get(c.name)!;
    const wall = summarize(s.map((x) => x.wallMs));
    const cpu = percentile(s.map((x) => x.cpuMs), 0.5);
    const host = s.map((x) => x.hostCpuMs ?? NaN);
    const hostMean = host.reduce((a, b) => a + b, 0) / host.length;
    return { case: c.name, n: wall.n, 'p50 ms': wall.p50, p95: wall.p95, '+ floor ms': wall.p50 - floorWall, 'CPU p50 ms': cpu, '+ floor CPU': cpu - floorCpu, 'host CPU mean': c.args[0] === '-e' ? '' : hostMean };
  }),
);

// Where the time goes, from this build's own trace (BATON_PHASE_TRACE), 150 messages.
const traceFile = join(root, 'trace.jsonl');
const file150 = join(root, 'conv-150.jsonl');
const traced: Sample[] = [];
// With --before, its build is traced in the same rounds (alternated): the host's parts of both
// under one load, where the whole process's wall is mostly Node's start-up and its noise.
const beforeTraceFile = join(root, 'trace-before.jsonl');
for (let i = 0; i < Math.max(5, Math.floor(RUNS / 2)); i++) {
  const tracedCwd = TRACE_CLEAN ? clean : work;
  if (BEFORE) await time(handoffArgs(builds[0]!.bin, file150, 150, tracedCwd), { [PHASE_TRACE_ENV]: beforeTraceFile });
  traced.push(await time(handoffArgs(BIN, file150, 150, tracedCwd), { [PHASE_TRACE_ENV]: traceFile }));
}
const lines = (await readFile(traceFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as PhaseTraceLine);
// The floor's own "exit event → parent saw the exit", measured the same way: the part holds more
// than a teardown (perf's start and Node's before its time origin), so it is read against this.
const floorExitFile = join(root, 'floor-exit.txt');
const floorExitHook = join(root, 'floor-exit.cjs');
await writeFile(floorExitHook, `process.once('exit', () => require('node:fs').appendFileSync(${JSON.stringify(floorExitFile)}, performance.now() + '\\n'));\n`);
const floorTraced: Sample[] = [];
for (let i = 0; i < traced.length; i++) floorTraced.push(await time(['-r', floorExitHook, '-e', '']));
const floorExits = (await readFile(floorExitFile, 'utf8')).trim().split('\n').map(Number);
const floorTeardown = percentile(floorTraced.map((s) => s.wallMs), 0.5) - percentile(floorExits, 0.5);
const p50 = (values: number[]) => percentile(values, 0.5);
const mark = (l: PhaseTraceLine, name: string) => l.marks[name] ?? NaN;
console.log(`CPU from ${usePerf ? 'perf stat -e task-clock' : '/usr/bin/time (10 ms steps)'}`);
console.log(`\nthis build, 150 messages, ${TRACE_CLEAN ? 'clean' : 'dirty'} work tree, ${lines.length} traced runs (p50 of each part; ms since the process started, or wall ms of the part):`);
// A hosted handoff (src/cli/handoff-fast.ts): the host landed and took the session; its parts are
// placed after the moment the request left (marks host-*, from the host's answer).
const hostedRuns = lines.filter((l) => l.marks['host-answered'] !== undefined);
if (hostedRuns.length > 0) console.log(`(${hostedRuns.length} of ${lines.length} traced runs were hosted: the table's parts are theirs)`);
const hostedPart = (part: string, from: string, to: string) => ({ part, ms: p50(hostedRuns.map((l) => mark(l, to) - mark(l, from))) });
if (hostedRuns.length > 0) printTable([
  { part: 'Node start-up + launcher + bundle load (to main)', ms: p50(hostedRuns.map((l) => mark(l, 'main'))) },
  hostedPart('main → file read (arguments, socket check, the file, the token)', 'main', 'read'),
  hostedPart('file read → connected (socket client load, authenticated handshake)', 'read', 'connected'),
  hostedPart('connected → request sent', 'connected', 'sent'),
  hostedPart('  sent → host: messages scanned', 'sent', 'host-read'),
  hostedPart('  sent → host: workspace captured (git through its shell; beside the scan)', 'sent', 'host-captured'),
  hostedPart('  sent → host: landed (fsyncs, read-back)', 'sent', 'host-landed'),
  hostedPart('  host: landed → offered and taken (manifest, summary, receiver, receipt)', 'host-landed', 'host-answered'),
  // The offer's and the receiver's own marks (absent in a build before the seventeenth sitting).
  hostedPart('    landed → summary made', 'host-landed', 'host-summary'),
  hostedPart('    summary → manifest built, record started', 'host-summary', 'host-manifest'),
  hostedPart('    manifest → receiver verified (beside the record)', 'host-manifest', 'host-verified'),
  hostedPart('    manifest → record durable (handoff.json, history)', 'host-manifest', 'host-recorded'),
  hostedPart('    manifest → may take (verified and record durable)', 'host-manifest', 'host-may-take'),
  hostedPart('    may take → narrowed (permissions: reads, revocations)', 'host-may-take', 'host-narrowed'),
  hostedPart('    narrowed → baton taken (session.json)', 'host-narrowed', 'host-taken'),
  hostedPart('    manifest → baton taken (after the record)', 'host-manifest', 'host-taken'),
  hostedPart('    manifest → workspace verdict (git, beside the above)', 'host-manifest', 'host-verdict'),
  hostedPart('    baton taken → receipt written (after the verdict)', 'host-taken', 'host-receipt'),
  hostedPart('    receipt → answered', 'host-receipt', 'host-answered'),
  hostedPart('sent → answer received (the host\'s work and the socket)', 'sent', 'answered'),
  hostedPart('answer received → printed (done)', 'answered', 'done'),
  hostedPart('done → exit event', 'done', 'exit'),
  { part: 'exit event → parent saw the exit (teardown, perf\'s start, Node\'s before its time origin)', ms: p50(traced.map((s) => s.wallMs)) - p50(hostedRuns.map((l) => mark(l, 'exit'))) },
  { part: '  the same part of node -e "" (floor, same rounds)', ms: floorTeardown },
  { part: 'whole process, wall (traced runs)', ms: p50(traced.map((s) => s.wallMs)) },
]);
else printTable([
  { part: 'Node start-up + launcher + bundle load (to main)', ms: p50(lines.map((l) => mark(l, 'main'))), count: '' },
  { part: 'command module init + argument parsing (main → action)', ms: p50(lines.map((l) => mark(l, 'action') - mark(l, 'main'))) },
  { part: 'the handoff (action → done)', ms: p50(lines.map((l) => mark(l, 'done') - mark(l, 'action'))) },
  // The marks of src/cli/commands/handoff.ts, in the order they come: the capture (git) runs
  // beside the store's open and the read of the messages, the landing waits for it.
  { part: '  action → store open', ms: p50(lines.map((l) => mark(l, 'store-open') - mark(l, 'action'))) },
  { part: '  store open → messages read (scanned)', ms: p50(lines.map((l) => mark(l, 'read') - mark(l, 'store-open'))) },
  { part: '  action → workspace captured (git, hashing; beside the two above)', ms: p50(lines.map((l) => mark(l, 'captured') - mark(l, 'action'))) },
  { part: '  messages read → landed (waits for the capture; fsyncs, read-back)', ms: p50(lines.map((l) => mark(l, 'landed') - mark(l, 'read'))) },
  { part: '  landed → answered (manifest, summary, connection, offer, the receiver)', ms: p50(lines.map((l) => mark(l, 'answered') - mark(l, 'landed'))) },
  { part: '  answered → event line written', ms: p50(lines.map((l) => mark(l, 'event-written') - mark(l, 'answered'))) },
  { part: '  of which git probes (wall while any runs)', ms: p50(lines.map((l) => l.parts.git.ms)), count: p50(lines.map((l) => l.parts.git.count)) },
  { part: '  of which fsyncs (wall while any runs)', ms: p50(lines.map((l) => l.parts.fsync.ms)), count: p50(lines.map((l) => l.parts.fsync.count)) },
  { part: '  of which socket exchange (connect + offer)', ms: p50(lines.map((l) => l.parts.socket.ms)), count: p50(lines.map((l) => l.parts.socket.count)) },
  { part: 'done → exit event', ms: p50(lines.map((l) => mark(l, 'exit') - mark(l, 'done'))) },
  { part: 'exit event → parent saw the exit (teardown)', ms: p50(traced.map((s) => s.wallMs)) - p50(lines.map((l) => mark(l, 'exit'))) },
  { part: 'whole process, wall (traced runs)', ms: p50(traced.map((s) => s.wallMs)) },
]);

if (BEFORE) {
  const beforeLines = (await readFile(beforeTraceFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as PhaseTraceLine).filter((l) => l.marks['host-answered'] !== undefined);
  const both = (part: string, from: string, to: string) => ({
    part,
    before: p50(beforeLines.map((l) => mark(l, to) - mark(l, from))),
    after: p50(hostedRuns.map((l) => mark(l, to) - mark(l, from))),
  });
  console.log(`\nthe host's parts, before and after, alternated in the same rounds (${beforeLines.length} / ${hostedRuns.length} hosted runs, p50 ms):`);
  printTable([
    both('sent → host: workspace captured', 'sent', 'host-captured'),
    both('sent → host: landed', 'sent', 'host-landed'),
    both('host: captured → landed', 'host-captured', 'host-landed'),
    both('host: landed → offered and taken', 'host-landed', 'host-answered'),
    both('  landed → manifest built', 'host-landed', 'host-manifest'),
    both('  manifest → baton taken', 'host-manifest', 'host-taken'),
    both('  baton taken → receipt written', 'host-taken', 'host-receipt'),
    both('sent → answer received', 'sent', 'answered'),
    both('file read → connected', 'read', 'connected'),
  ]);
}

if (PROFILE_DIR) {
  await mkdir(PROFILE_DIR, { recursive: true });
  const preload = join(root, 'module-list.cjs');
  await writeFile(preload, `process.once('exit', () => require('node:fs').writeFileSync(process.env.MODULE_LIST_OUT, JSON.stringify(process.moduleLoadList)));\n`);
  const floorList = join(root, 'floor-modules.json');
  const cliList = join(root, 'cli-modules.json');
  await time(['-r', preload, '-e', ''], { MODULE_LIST_OUT: floorList });
  await time(['-r', preload, '--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, '--cpu-prof-interval=100', ...handoffArgs(BIN, file150, 150)], { MODULE_LIST_OUT: cliList });
  const base = new Set(JSON.parse(await readFile(floorList, 'utf8')) as string[]);
  const extra = (JSON.parse(await readFile(cliList, 'utf8')) as string[]).filter((m) => !base.has(m));
  console.log(`\nNode internals loaded beyond node -e "": ${extra.length}\n${extra.join(' ')}\nCPU profile in ${PROFILE_DIR} (npx tsx bench/importers/profile-summary.ts FILE)`);
}
for (const receiver of receivers) {
  receiver.stdin!.end();
  await once(receiver, 'exit');
}
await rm(root, { recursive: true, force: true });
