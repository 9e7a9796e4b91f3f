// Issue 20: a big session handed off, verified and shown, each against its floor measured in the
// same run. Sizes by message count (~290 bytes a message: 100,000 ≈ 29 MB, 1,000,000 ≈ 290 MB).
//   npm run build:node && npx tsx bench/store/big-session.ts [count=100000] [runs=3]
// BATON_BENCH_HANDOFF_ONLY=1: the handoffs and their floor only (no show, no scans): the 300 MB and
// 1 GB runs, where the handoff's time and peak RSS are what is measured.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostServices } from '../../src/core/host/host-services.js';
import { buildManifest } from '../../src/core/handoff/build-manifest.js';
import { verifyAgainstDisk } from '../../src/core/handoff/verify-offer.js';
import { openStore } from '../../src/core/store/index.js';
import type { FileSessionStore } from '../../src/core/store/session-store.js';
import { checkLineCrc } from '../../src/core/store/line-crc.js';
import { readBackLanding, type WrittenLog } from '../../src/core/store/landing-read-back.js';
import { nodeDurableFs } from '../../src/core/fs/durable-fs.js';
import { crc32 } from 'node:zlib';
import { acceptRecords, scanLog } from '../../src/core/store/record-codec.js';
import { printTable, summarize } from '../stats.js';
import { writeBenchMessages } from './bench-messages.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 3);
// BATON_BENCH_BIN: another build's bin/baton.js (e.g. the commit before, for a before/after table).
const BIN = process.env.BATON_BENCH_BIN ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
// BATON_BENCH_BASE_BIN: an earlier build, run interleaved with this one (same load) for before/after rows.
const BASE_BIN = process.env.BATON_BENCH_BASE_BIN;
const RSS_HOOK = resolve(import.meta.dirname, 'max-rss.cjs');
// BATON_BENCH_CPU_PROF=DIR: each baton process also writes a V8 CPU profile there (summarise with profile-summary.ts).
const PROF = process.env.BATON_BENCH_CPU_PROF;
const HANDOFF_ONLY = process.env.BATON_BENCH_HANDOFF_ONLY === '1';
const PARSE_FLOOR = resolve(import.meta.dirname, 'parse-floor.cjs');
const FLOOR_SCRIPT = resolve(import.meta.dirname, 'handoff-floor.ts');

// Under /tmp (not bench/.data): the 300 MB and 1 GB runs are removed at the end.
const root = await mkdtemp(join(tmpdir(), 'baton-bench-big-'));
const dataDir = join(root, 'data');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation', 'approval-ui'] });
// Encrypted at rest (a Secret Service answers: bench/with-secret-service.ts): the floor seals every record too.
const ENCRYPTED = (services.store as unknown as FileSessionStore).atRest.state === 'on';
const input = join(root, 'conv.jsonl');
// The same messages as big-session.ts and show-all.ts.
await writeBenchMessages(input, COUNT);
const inputBytes = (await stat(input)).size;
const mb = (bytes: number) => bytes / 1e6;

interface Run {
  ms: number;
  cpuMs: number;
  rssMb: number;
  out: string;
}

/** Wall time, CPU time and peak RSS of one child process (async: the in-process receiver answers meanwhile). */
function run(args: string[], stdout: 'ignore' | 'pipe' = 'ignore'): Promise<Run> {
  const rssFile = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const profile = PROF && (args[0] === BIN || args[0] === BASE_BIN) ? [`--cpu-prof`, `--cpu-prof-dir=${join(PROF, args[1]!)}`] : [];
    const child = execFile(process.execPath, [...profile, ...args], { env: { ...process.env, BATON_HOME: dataDir, NODE_OPTIONS: `--require ${RSS_HOOK}`, BATON_BENCH_RSS_FILE: rssFile }, maxBuffer: 1 << 30 }, async (error, out, err) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (error) return fail(new Error(`${args.join(" ")}: ${error.message} ${out.slice(0, 1500)} ${err.slice(0, 500)}`));
      const [rssKb, cpuUs] = (await readFile(rssFile, 'utf8').catch(() => '0 0')).split(' ').map(Number);
      done({ ms, cpuMs: cpuUs! / 1000, rssMb: rssKb! / 1024, out: stdout === 'pipe' ? out : '' });
    });
    // Dropped as it comes (execFile would keep it: `show --all` of 1 GB is more than one string can hold).
    if (stdout === 'ignore') child.stdout?.removeAllListeners('data').resume();
  });
}

/** The per-record floor of a handoff, each part timed inside a fresh process (handoff-floor.ts), as baton's own heap is fresh. */
async function handoffFloor(): Promise<Record<string, number>> {
  const { out } = await run(['--import', 'tsx', FLOOR_SCRIPT, input, join(root, 'floor.jsonl'), ...(ENCRYPTED ? ['--encrypt'] : [])], 'pipe');
  return JSON.parse(out) as Record<string, number>;
}

const startup = await Promise.all([0, 1, 2].map(() => run(['-e', ''])));
const floors: Record<string, number>[] = [];
const handoffs: Run[] = [];
const baseHandoffs: Run[] = [];
let sessionId = '';
// The base build reads only the line format it wrote: its show runs on its own session.
let baseSessionId = '';
async function handoff(bin: string, i: number): Promise<Run> {
  const h = await run([bin, 'handoff', '--cwd', root, '--title', `big ${i}`, '--messages', input, '--no-launch', '--json'], 'pipe');
  const answer = JSON.parse(h.out.trim().split('\n').at(-1)!) as { category: string; sessionId: string };
  if (answer.category !== 'accepted') throw new Error(`handoff not accepted: ${h.out.slice(0, 500)}`);
  if (bin === BIN) sessionId = answer.sessionId;
  else baseSessionId = answer.sessionId;
  return h;
}
for (let i = 0; i < RUNS; i++) {
  floors.push(await handoffFloor());
  if (BASE_BIN) baseHandoffs.push(await handoff(BASE_BIN, i));
  handoffs.push(await handoff(BIN, i));
}
const median = (xs: number[]) => summarize(xs).p50;
const part = (k: string) => median(floors.map((f) => f[k]!));
const nodeStart = median(startup.map((r) => r.ms));
const nodeStartCpu = median(startup.map((r) => r.cpuMs));
const ioFloor = part('parse') + part('encrypt') + part('write') + part('readBack');
const fullFloor = ioFloor + part('redact') + part('context');
const fullFloorCpu = nodeStartCpu + part('cpuMs');

if (HANDOFF_ONLY) {
  console.log(`\n${ENCRYPTED ? 'ENCRYPTED at rest' : 'not encrypted'}: ${COUNT.toLocaleString('en')} messages: input ${mb(inputBytes).toFixed(1)} MB; ${RUNS} runs, medians; handoffs only; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}\n`);
  printTable([{ 'node start': nodeStart, 'parse lines': part('parse'), 'AES-256-GCM seal per record': ENCRYPTED ? part('encrypt') : '—', 'write+fsync': part('write'), 'read back+sha256': part('readBack'), 'redaction (issue 12)': part('redact'), 'anchors+estimate (issue 9/11)': part('context') }]);
  const only = (measure: string, runs: Run[]) => ({ measure, ms: median(runs.map((r) => r.ms)), 'floor ms': nodeStart + fullFloor, ratio: median(runs.map((r) => r.ms)) / (nodeStart + fullFloor), 'CPU ms': median(runs.map((r) => r.cpuMs)), 'floor CPU ms': fullFloorCpu, 'CPU ratio': median(runs.map((r) => r.cpuMs)) / fullFloorCpu, 'peak RSS MB': median(runs.map((r) => r.rssMb)) });
  printTable([...(BASE_BIN ? [only('before: baton handoff (base build)', baseHandoffs)] : []), only('baton handoff (whole process, receiver verifies)', handoffs)]);
  await services.close();
  await rm(root, { recursive: true, force: true });
  process.exit(0);
}
const store = await openStore(dataDir);
const log = join(store.sessionDir(sessionId), 'messages.jsonl');
const logBytes = (await stat(log)).size;
const shows: Run[] = [];
const baseShows: Run[] = [];
const parses: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  parses.push(await run([PARSE_FLOOR, log]));
  if (BASE_BIN) baseShows.push(await run([BASE_BIN, 'show', baseSessionId, '--all', '--json']));
  shows.push(await run([BIN, 'show', sessionId, '--all', '--json']));
}

// Verification scans, in this process: the landing's read-back (each line's checksum, no parse)
// and the receiver's check (sha256 + line count), against reading and hashing the bytes alone.
const scan = async (fn: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const at = performance.now();
    await fn();
    times.push(performance.now() - at);
  }
  return median(times);
};
const hashOnly = await scan(async () => createHash('sha256').update(await readFile(log)).digest('hex'));
// The receiver's check as it runs (verifyAgainstDisk) on the manifest the handoff sent: built here
// from the same read-back (log bytes, and for an encrypted log its stored bytes) and records.
const manifest = buildManifest({
  handoffId: 'h-bench',
  session: await store.getSession(sessionId),
  records: await store.readMessages(sessionId),
  workspace: (await store.getSession(sessionId)).workspace as never,
  client: { name: 'bench', version: '0' },
  log: await store.streamMessages(sessionId, () => undefined),
});
const mismatches = await verifyAgainstDisk(store, manifest);
if (mismatches.length > 0) throw new Error(`the receiver's check failed: ${JSON.stringify(mismatches).slice(0, 500)}`);
const receiverCheck = await scan(() => verifyAgainstDisk(store, manifest));
const openedScan = await scan(() => store.streamMessages(sessionId, () => undefined));
// The landing's read-back as the landing runs it (readBackLanding), against what the writer kept:
// rebuilt here from the file (each line's check value, the file's sha256, the plaintext figures).
const written = await (async (): Promise<WrittenLog> => {
  const checks: number[] = [];
  const whole = await readFile(log);
  for (let at = 0, nl = whole.indexOf(10); nl !== -1; at = nl + 1, nl = whole.indexOf(10, at)) {
    const line = whole.subarray(at, nl);
    checks.push(ENCRYPTED ? crc32(line) : Number.parseInt(checkLineCrc(line) ?? 'x', 16));
  }
  const plain = ENCRYPTED ? await store.streamMessages(sessionId, () => undefined) : undefined;
  const sha = createHash('sha256').update(whole).digest('hex');
  return { count: checks.length, bytes: whole.length, checkAt: (i) => checks[i], storedSha256: () => sha, sealedPlain: () => plain && { bytes: plain.bytes, sha256: plain.sha256 } };
})();
const readBackCheck = await scan(() => readBackLanding(nodeDurableFs, log, sessionId, written));
const firstScreen = await scan(() => store.readMessages(sessionId, { tail: 50 }));
// What a writer opening the log without its checkpoint does: the full recovery scan (a parse and
// a checksum per line, the ordering rules), over the bytes in memory.
const recoveryMs = await scan(async () => acceptRecords(scanLog(await readFile(log), 0).records, new Set(), -1));
await store.close();

console.log(`\n${ENCRYPTED ? 'ENCRYPTED at rest' : 'not encrypted'}: ${COUNT.toLocaleString('en')} messages: input ${mb(inputBytes).toFixed(1)} MB, log ${mb(logBytes).toFixed(1)} MB; ${RUNS} runs, medians; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}\n`);
console.log('Handoff floor parts (ms, timed inside a fresh process):');
printTable([{ 'node start': nodeStart, 'parse lines': part('parse'), 'AES-256-GCM seal per record': ENCRYPTED ? part('encrypt') : '—', 'write+fsync': part('write'), 'read back+sha256': part('readBack'), 'redaction (issue 12)': part('redact'), 'anchors+estimate (issue 9/11)': part('context') }]);
console.log();
const row = (measure: string, runs: Run[], floorMs: number, floorCpu: number, floor: string) => ({
  measure,
  ms: median(runs.map((r) => r.ms)),
  'floor ms': floorMs,
  ratio: median(runs.map((r) => r.ms)) / floorMs,
  'CPU ms': median(runs.map((r) => r.cpuMs)),
  'floor CPU ms': floorCpu,
  'CPU ratio': median(runs.map((r) => r.cpuMs)) / floorCpu,
  'peak RSS MB': median(runs.map((r) => r.rssMb)),
  floor,
});
const fullFloorText = `node start + parse + ${ENCRYPTED ? 'one AES-256-GCM seal per record + ' : ''}write + fsync + read back + sha256 + redaction + anchors`;
const parseFloor = median(parses.map((r) => r.ms));
const parseFloorCpu = median(parses.map((r) => r.cpuMs));
printTable([
  ...(BASE_BIN ? [row('before: baton handoff (base build)', baseHandoffs, nodeStart + fullFloor, fullFloorCpu, fullFloorText)] : []),
  row('baton handoff (whole process, receiver verifies)', handoffs, nodeStart + fullFloor, fullFloorCpu, fullFloorText),
  { ...row('baton handoff vs the I/O floor alone', handoffs, nodeStart + ioFloor, Number.NaN, `node start + parse + ${ENCRYPTED ? 'seal + ' : ''}write + fsync + read back + sha256`), 'floor CPU ms': '', 'CPU ratio': '' },
  ...(BASE_BIN ? [row('before: baton show --all --json (base build)', baseShows, parseFloor, parseFloorCpu, 'node process: JSON.parse of every line (parse-floor.cjs)')] : []),
  row('baton show --all --json', shows, parseFloor, parseFloorCpu, 'node process: JSON.parse of every line (parse-floor.cjs)'),
]);
console.log();
printTable([
  { measure: `receiver check as run (verifyAgainstDisk${manifest.context.log_stored_sha256 ? ': stored bytes, no decryption' : ''})`, ms: receiverCheck, 'MB/s': mb(logBytes) / (receiverCheck / 1000), 'floor: readFile + sha256 ms': hashOnly, ratio: receiverCheck / hashOnly },
  { measure: `the log's records streamed${ENCRYPTED ? ' (one decipher per record)' : ''} + sha256`, ms: openedScan, 'MB/s': mb(logBytes) / (openedScan / 1000), 'floor: readFile + sha256 ms': hashOnly, ratio: openedScan / hashOnly },
  { measure: `landing read-back as the landing runs it (crc per line + sha256${ENCRYPTED ? ', no decipher' : ''})`, ms: readBackCheck, 'MB/s': mb(logBytes) / (readBackCheck / 1000), 'floor: readFile + sha256 ms': hashOnly, ratio: readBackCheck / hashOnly },
  { measure: 'recovery scan without checkpoint (parse + crc per line)', ms: recoveryMs, 'MB/s': mb(logBytes) / (recoveryMs / 1000), 'floor: readFile + sha256 ms': hashOnly, ratio: recoveryMs / hashOnly },
  { measure: 'first screen: the last 50 messages (the page the UI asks for)', ms: firstScreen, 'MB/s': '', 'floor: readFile + sha256 ms': '', ratio: '' },
]);
await services.close();
await rm(root, { recursive: true, force: true });
