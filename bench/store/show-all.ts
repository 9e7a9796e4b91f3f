// Issue 20 (and 17 with encryption on): `baton show <id> --all --json` of a big session against its
// floor measured in the same run: a bare Node process reading the log and JSON.parse-ing every line
// (parse-floor.cjs), which for a store encrypted at rest also parses each envelope, base64-decodes
// it and opens it with one AES-256-GCM decipher per record (AAD session id + seq, tag checked).
//   npm run build:node && npx tsx bench/store/show-all.ts [count=100000] [runs=5]
//   npx tsx bench/with-secret-service.ts npx tsx bench/store/show-all.ts [count] [runs]   (encrypted)
// BATON_BENCH_BASE_BIN=<another build's bin/baton.js>: its show runs interleaved (a before row) and
// its output must be byte-identical. BATON_BENCH_CPU_PROF=DIR: each baton show writes a CPU profile.
import { spawn } from 'node:child_process';
import { createDecipheriv, createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostServices } from '../../src/core/host/host-services.js';
import { cipherOf } from '../../src/core/store/at-rest/encrypting-fs.js';
import { storeFsFor } from '../../src/core/store/at-rest/registry.js';
import { printTable, summarize } from '../stats.js';
import { writeBenchMessages } from './bench-messages.js';

const COUNT = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 5);
const BIN = process.env.BATON_BENCH_BIN ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BASE_BIN = process.env.BATON_BENCH_BASE_BIN;
const PROF = process.env.BATON_BENCH_CPU_PROF;
const RSS_HOOK = resolve(import.meta.dirname, 'max-rss.cjs');
const PARSE_FLOOR = resolve(import.meta.dirname, 'parse-floor.cjs');

const root = await mkdtemp(join(tmpdir(), 'baton-bench-show-'));
const dataDir = join(root, 'data');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation', 'approval-ui'] });
const key = cipherOf(storeFsFor(dataDir))?.current.key;
const input = join(root, 'conv.jsonl');
// The same messages as big-session.ts and show-all.ts.
await writeBenchMessages(input, COUNT);

interface Run {
  ms: number;
  cpuMs: number;
  rssMb: number;
  /** sha256 of stdout (streamed, never held). */
  sha256: string;
  out: string;
}

/** Wall time, CPU time (user + system, from the child's own resourceUsage) and peak RSS of one child. */
function run(args: string[], env: Record<string, string> = {}, keep = false): Promise<Run> {
  const rssFile = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  // One directory per build and command: PROF/show (this build), PROF/show-base, PROF/handoff.
  const label = `${args[1]}${args[0] === BASE_BIN ? '-base' : ''}`;
  const profile = PROF && (args[0] === BIN || args[0] === BASE_BIN) ? ['--cpu-prof', `--cpu-prof-dir=${join(PROF, label)}`] : [];
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...profile, ...args], { env: { ...process.env, ...env, BATON_HOME: dataDir, NODE_OPTIONS: `--require ${RSS_HOOK}`, BATON_BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    const hash = createHash('sha256');
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      hash.update(b);
      if (keep) out += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => void (err += b.toString('utf8')));
    child.once('error', fail);
    child.once('close', async (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return fail(new Error(`${args.join(' ')} exited ${code}: ${err.slice(0, 800)}`));
      const [rssKb, cpuUs] = (await readFile(rssFile, 'utf8')).split(' ').map(Number);
      done({ ms, cpuMs: cpuUs! / 1000, rssMb: rssKb! / 1024, sha256: hash.digest('hex'), out });
    });
  });
}

// One handoff lands the session (through the product's own landing, sealed when encrypted).
const handed = await run([BIN, 'handoff', '--cwd', root, '--title', 'big show', '--messages', input, '--no-launch', '--json'], {}, true);
const answer = JSON.parse(handed.out.trim().split('\n').at(-1)!) as { category: string; sessionId: string };
if (answer.category !== 'accepted') throw new Error(`handoff not accepted: ${handed.out.slice(0, 500)}`);
const sessionId = answer.sessionId;
const log = join(dataDir, 'sessions', sessionId, 'messages.jsonl');
const logBytes = await readFile(log);

const floorEnv: Record<string, string> = key ? { BATON_BENCH_KEY: key.toString('hex') } : {};
const starts: Run[] = [];
const floors: Run[] = [];
const shows: Run[] = [];
const bases: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  starts.push(await run(['-e', '']));
  floors.push(await run([PARSE_FLOOR, log, sessionId], floorEnv));
  if (BASE_BIN) bases.push(await run([BASE_BIN, 'show', sessionId, '--all', '--json']));
  shows.push(await run([BIN, 'show', sessionId, '--all', '--json']));
}
const digests = new Set([...shows, ...bases].map((r) => r.sha256));
if (digests.size !== 1) throw new Error(`show --all --json printed different bytes across runs or builds: ${[...digests].join(', ')}`);

// The floor's parts, timed in this process over the log's bytes in memory (warm, min of 3), so the
// table can say what the floor is made of; the floor row itself is the fresh process above.
const parts = floorParts();
function floorParts(): Record<string, number> {
  const text = logBytes.toString('utf8');
  const lines = text.split('\n').filter((l) => l.length > 0);
  const best = (fn: () => void) => Math.min(...[0, 1, 2].map(() => ((at) => (fn(), performance.now() - at))(performance.now())));
  const result: Record<string, number> = { 'split lines': best(() => void logBytes.toString('utf8').split('\n')) };
  if (!key) return { ...result, 'JSON.parse per line': best(() => lines.forEach((l) => JSON.parse(l))) };
  const envelopes = lines.map((l) => JSON.parse(l) as { s: number; e: string });
  const sealed = envelopes.map((e) => Buffer.from(e.e, 'base64'));
  const plains: Buffer[] = [];
  return {
    ...result,
    'JSON.parse of the envelope': best(() => lines.forEach((l) => JSON.parse(l))),
    'base64 decode': best(() => envelopes.forEach((e) => Buffer.from(e.e, 'base64'))),
    'AES-256-GCM decipher per record': best(() => {
      plains.length = 0;
      sealed.forEach((s, i) => {
        const d = createDecipheriv('aes-256-gcm', key, s.subarray(0, 12));
        d.setAAD(Buffer.from(`baton-record-v1\0${sessionId}\0${envelopes[i]!.s}`, 'utf8'));
        d.setAuthTag(s.subarray(s.length - 16));
        plains.push(d.update(s.subarray(12, s.length - 16)));
        d.final();
      });
    }),
    'JSON.parse of the record': best(() => plains.forEach((p) => JSON.parse(p.toString('utf8')))),
  };
}

const median = (xs: number[]) => summarize(xs).p50;
const loadavg = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
console.log(`\n${key ? 'ENCRYPTED at rest' : 'not encrypted'}: show --all --json of ${COUNT.toLocaleString('en')} messages, log ${(logBytes.length / 1e6).toFixed(1)} MB; ${RUNS} runs interleaved, medians; load ${loadavg}\n`);
console.log(`Floor parts (ms, in this process, warm, min of 3): ${Object.entries(parts).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}; node start ${median(starts.map((r) => r.ms)).toFixed(0)} ms\n`);
const floorMs = median(floors.map((r) => r.ms));
const floorCpu = median(floors.map((r) => r.cpuMs));
const row = (measure: string, runs: Run[]) => ({
  measure,
  'wall ms': median(runs.map((r) => r.ms)),
  'wall ratio': median(runs.map((r) => r.ms)) / floorMs,
  'CPU ms': median(runs.map((r) => r.cpuMs)),
  'CPU ratio': median(runs.map((r) => r.cpuMs)) / floorCpu,
  'peak RSS MB': median(runs.map((r) => r.rssMb)),
});
printTable([
  row('node -e ""', starts),
  row(`floor: node process, read + ${key ? 'envelope parse + base64 + one AES-256-GCM decipher + ' : ''}JSON.parse per line (parse-floor.cjs)`, floors),
  ...(BASE_BIN ? [row('before: baton show --all --json (base build)', bases)] : []),
  row('baton show --all --json', shows),
]);
console.log(`\noutput: ${shows[0]!.sha256.slice(0, 16)}… (${BASE_BIN ? 'identical to the base build, ' : ''}identical across runs)`);
await services.close();
await rm(root, { recursive: true, force: true });
