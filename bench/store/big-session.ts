// Issue 20: a big session handed off, verified and shown, each against its floor measured in the
// same run. Sizes by message count (~290 bytes a message: 100,000 ≈ 29 MB, 1,000,000 ≈ 290 MB).
//   npm run build:node && npx tsx bench/store/big-session.ts [count=100000] [runs=3]
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostServices } from '../../src/core/host/host-services.js';
import { openStore } from '../../src/core/store/index.js';
import { checkLineCrc } from '../../src/core/store/line-crc.js';
import { acceptRecords, scanLog } from '../../src/core/store/record-codec.js';
import { printTable, summarize } from '../stats.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 3);
// BATON_BENCH_BIN: another build's bin/baton.js (e.g. the commit before, for a before/after table).
const BIN = process.env.BATON_BENCH_BIN ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const RSS_HOOK = resolve(import.meta.dirname, 'max-rss.cjs');
// BATON_BENCH_CPU_PROF=DIR: each baton process also writes a V8 CPU profile there (summarise with profile-summary.ts).
const PROF = process.env.BATON_BENCH_CPU_PROF;
const PARSE_FLOOR = resolve(import.meta.dirname, 'parse-floor.cjs');
const FLOOR_SCRIPT = resolve(import.meta.dirname, 'handoff-floor.ts');

// Under /tmp (not bench/.data): the 300 MB and 1 GB runs are removed at the end.
const root = await mkdtemp(join(tmpdir(), 'baton-bench-big-'));
const dataDir = join(root, 'data');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation', 'approval-ui'] });
const input = join(root, 'conv.jsonl');
{
  const file = await open(input, 'w');
  for (let at = 0; at < COUNT; at += 10_000) {
    const lines = Array.from({ length: Math.min(10_000, COUNT - at) }, (_, j) => {
      const i = at + j;
      return `${JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(9)}` })}\n`;
    });
    await file.write(lines.join(''));
  }
  await file.close();
}
const inputBytes = (await stat(input)).size;
const mb = (bytes: number) => bytes / 1e6;

/** Wall time and peak RSS of one child process (async: the in-process receiver answers meanwhile). */
function run(args: string[], stdout: 'ignore' | 'pipe' = 'ignore'): Promise<{ ms: number; rssMb: number; out: string }> {
  const rssFile = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const profile = PROF && args[0] === BIN ? [`--cpu-prof`, `--cpu-prof-dir=${join(PROF, args[1]!)}`] : [];
    const child = execFile(process.execPath, [...profile, ...args], { env: { ...process.env, BATON_HOME: dataDir, NODE_OPTIONS: `--require ${RSS_HOOK}`, BATON_BENCH_RSS_FILE: rssFile }, maxBuffer: 1 << 30 }, async (error, out, err) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (error) return fail(new Error(`${args.join(' ')}: ${error.message} ${err.slice(0, 500)}`));
      const rssKb = Number(await readFile(rssFile, 'utf8').catch(() => '0'));
      done({ ms, rssMb: rssKb / 1024, out: stdout === 'pipe' ? out : '' });
    });
    if (stdout === 'ignore') child.stdout?.resume();
  });
}

/** The per-record floor of a handoff, each part timed inside a fresh process (handoff-floor.ts), as baton's own heap is fresh. */
async function handoffFloor(): Promise<Record<string, number>> {
  const { out } = await run(['--import', 'tsx', FLOOR_SCRIPT, input, join(root, 'floor.jsonl')], 'pipe');
  return JSON.parse(out) as Record<string, number>;
}

const startup = (await Promise.all([0, 1, 2].map(() => run(['-e', ''])))).map((r) => r.ms);
const floors: Record<string, number>[] = [];
const handoffs: Array<{ ms: number; rssMb: number }> = [];
let sessionId = '';
for (let i = 0; i < RUNS; i++) {
  floors.push(await handoffFloor());
  const h = await run([BIN, 'handoff', '--cwd', root, '--title', `big ${i}`, '--messages', input, '--no-launch', '--json'], 'pipe');
  const answer = JSON.parse(h.out.trim().split('\n').at(-1)!) as { category: string; sessionId: string };
  if (answer.category !== 'accepted') throw new Error(`handoff not accepted: ${h.out.slice(0, 500)}`);
  sessionId = answer.sessionId;
  handoffs.push(h);
}
const median = (xs: number[]) => summarize(xs).p50;
const part = (k: string) => median(floors.map((f) => f[k]!));
const nodeStart = median(startup);
const ioFloor = part('parse') + part('write') + part('readBack');
const fullFloor = ioFloor + part('redact') + part('context');
const handoffMs = median(handoffs.map((h) => h.ms));

const store = await openStore(dataDir);
const log = join(store.sessionDir(sessionId), 'messages.jsonl');
const logBytes = (await stat(log)).size;
const shows: Array<{ ms: number; rssMb: number }> = [];
const parses: number[] = [];
for (let i = 0; i < RUNS; i++) {
  parses.push((await run([PARSE_FLOOR, log])).ms);
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
const receiverCheck = await scan(() => store.streamMessages(sessionId, () => undefined));
const readBackCheck = await scan(() => store.streamMessages(sessionId, (line) => void checkLineCrc(line)));
const firstScreen = await scan(() => store.readMessages(sessionId, { tail: 50 }));
// What a writer opening the log without its checkpoint does: the full recovery scan (a parse and
// a checksum per line, the ordering rules), over the bytes in memory.
const recoveryMs = await scan(async () => acceptRecords(scanLog(await readFile(log), 0).records, new Set(), -1));
await store.close();

console.log(`\n${COUNT.toLocaleString('en')} messages: input ${mb(inputBytes).toFixed(1)} MB, log ${mb(logBytes).toFixed(1)} MB; ${RUNS} runs, medians; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}\n`);
console.log('Handoff floor parts (ms, timed inside a fresh process):');
printTable([{ 'node start': nodeStart, 'parse lines': part('parse'), 'write+fsync': part('write'), 'read back+sha256': part('readBack'), 'redaction (issue 12)': part('redact'), 'anchors+estimate (issue 9/11)': part('context') }]);
console.log();
printTable([
  { measure: 'baton handoff (whole process, receiver verifies)', ms: handoffMs, 'floor ms': nodeStart + fullFloor, ratio: handoffMs / (nodeStart + fullFloor), 'peak RSS MB': median(handoffs.map((h) => h.rssMb)), floor: 'node start + parse + write + fsync + read back + sha256 + redaction + anchors' },
  { measure: 'baton handoff vs the I/O floor alone', ms: handoffMs, 'floor ms': nodeStart + ioFloor, ratio: handoffMs / (nodeStart + ioFloor), 'peak RSS MB': median(handoffs.map((h) => h.rssMb)), floor: 'node start + parse + write + fsync + read back + sha256' },
  { measure: 'baton show --all --json', ms: median(shows.map((s) => s.ms)), 'floor ms': median(parses), ratio: median(shows.map((s) => s.ms)) / median(parses), 'peak RSS MB': median(shows.map((s) => s.rssMb)), floor: 'node process: JSON.parse of every line (parse-floor.cjs)' },
  { measure: `receiver check (sha256 + count), MB/s`, ms: receiverCheck, 'floor ms': hashOnly, ratio: receiverCheck / hashOnly, 'peak RSS MB': '', floor: `readFile + sha256; ${(mb(logBytes) / (receiverCheck / 1000)).toFixed(0)} MB/s` },
  { measure: `landing read-back (crc per line + sha256), MB/s`, ms: readBackCheck, 'floor ms': hashOnly, ratio: readBackCheck / hashOnly, 'peak RSS MB': '', floor: `readFile + sha256; ${(mb(logBytes) / (readBackCheck / 1000)).toFixed(0)} MB/s` },
  { measure: 'recovery scan without checkpoint (parse + crc per line), MB/s', ms: recoveryMs, 'floor ms': hashOnly, ratio: recoveryMs / hashOnly, 'peak RSS MB': '', floor: `${(mb(logBytes) / (recoveryMs / 1000)).toFixed(0)} MB/s` },
  { measure: 'first screen: last 50 messages (store page)', ms: firstScreen, 'floor ms': '', ratio: '', 'peak RSS MB': '', floor: 'target < 1,000 ms' },
]);
await services.close();
await rm(root, { recursive: true, force: true });
