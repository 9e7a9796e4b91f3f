// Issue 20: import of a big Claude Code transcript (`baton handoff --from claude --session FILE
// --dry-run`: read, convert, redact, land, read back, manifest) against its floors measured in the
// same run, each a Node process: the bare parse (parse-floor.cjs: 1 MiB reads, JSON.parse of every
// line) and the full floor (import-floor.ts, bundled here: + the product's redaction of every
// message, + one JSONL line a message written, fsync'd, read back and sha256'd; and the floor with the
// summary's totals and anchors, which issue 20 counts in the floors too), its parts printed one by one. Each process's wall time, CPU time (user + system) and peak RSS.
// Encrypted at rest (run under bench/with-secret-service.ts: a new store is encrypted by default),
// the full floor also seals each line once (AES-256-GCM, as big-session.ts's handoff floor does),
// and writes and reads back those sealed lines: what the product must do per record, and no more.
//   npm run build:node && npx tsx bench/store/big-import.ts [megabytes=300] [runs=1]
// The transcript repeats the lines of ../shared/fixtures/agent-logs/claude-code-session.sample.jsonl
// (the real shape), each with its own uuid/parentUuid chain and message id, padded text to size.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { openStore } from '../../src/core/store/index.js';
import { osKeyStore } from '../../src/core/store/at-rest/key-store.js';
import { printTable, summarize } from '../stats.js';

const MEGABYTES = Number(process.argv[2] ?? 300);
const RUNS = Number(process.argv[3] ?? 1);
const BIN = process.env.BATON_BENCH_BIN ?? resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BASE_BIN = process.env.BATON_BENCH_BASE_BIN;
const RSS_HOOK = resolve(import.meta.dirname, 'max-rss.cjs');
// BATON_BENCH_CPU_PROF=DIR: each baton process writes a V8 CPU profile there (summarise with profile-summary.ts).
const PROF = process.env.BATON_BENCH_CPU_PROF;
const PARSE_FLOOR = resolve(import.meta.dirname, 'parse-floor.cjs');
const IMPORT_FLOOR_SOURCE = resolve(import.meta.dirname, 'import-floor.ts');
const FIXTURE = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'agent-logs', 'claude-code-session.sample.jsonl');

const root = await mkdtemp(join(tmpdir(), 'baton-bench-import-'));
const home = join(root, 'home');
const sessionId = '4d5611e5-241a-462a-8d15-5122611a9569';
const projectDir = join(home, '.claude', 'projects', '-bench-project');
await mkdir(projectDir, { recursive: true });
const transcript = join(projectDir, `${sessionId}.jsonl`);

/** Template lines with their conversation text grown, so the transcript is mostly message text as real ones are. */
const templates = (await readFile(FIXTURE, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const PAD = ' The build passes; next the parser keeps each line once and the reader streams the rest.'.repeat(3);
{
  const file = await open(transcript, 'w');
  let written = 0;
  let parent: string | null = null;
  for (let i = 0; written < MEGABYTES * 1e6; ) {
    let batch = '';
    for (let j = 0; j < 2_000; j++, i++) {
      const line = structuredClone(templates[i % templates.length]!);
      const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      line.uuid = uuid;
      if ('parentUuid' in line) line.parentUuid = parent;
      parent = uuid;
      const message = line.message as { id?: string; content?: unknown } | undefined;
      if (message?.id) message.id = `msg_bench_${i}`;
      if (message && typeof message.content === 'string') message.content = `${message.content} (${i})${PAD}`;
      if (message && Array.isArray(message.content))
        for (const part of message.content as Record<string, unknown>[]) {
          if (typeof part.text === 'string') part.text = `${part.text} (${i})${PAD}`;
          if (typeof part.id === 'string') part.id = `toolu_bench_${i}`;
          if (typeof part.tool_use_id === 'string') part.tool_use_id = `toolu_bench_${i - 1}`;
          if (typeof part.content === 'string') part.content = `${part.content} (${i})${PAD}`;
        }
      batch += `${JSON.stringify(line)}\n`;
    }
    await file.write(batch);
    written += Buffer.byteLength(batch);
  }
  await file.close();
}
const inputBytes = (await stat(transcript)).size;
// Whether a new store is encrypted at rest here (a Secret Service answers): the floors seal too.
const ENCRYPTED = await (async () => {
  const probe = await openStore(join(root, 'probe'));
  const on = probe.atRest.state === 'on';
  await probe.close();
  // The probe's key is removed from the keychain with the probe (outside with-secret-service.ts it is the person's own).
  if (on) await osKeyStore().remove((JSON.parse(await readFile(join(root, 'probe', 'encryption.json'), 'utf8')) as { key: { account: string } }).key.account);
  await rm(join(root, 'probe'), { recursive: true, force: true });
  return on;
})();
const encryptArg = ENCRYPTED ? ['--encrypt'] : [];
// The full floor as one CommonJS file, so its process loads no more than it runs (like baton's bundle).
const importFloor = join(root, 'import-floor.cjs');
await build({ entryPoints: [IMPORT_FLOOR_SOURCE], outfile: importFloor, bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, logLevel: 'warning' });

interface Run {
  ms: number;
  cpuMs: number;
  rssMb: number;
  out: string;
}

function run(args: string[], dataDir: string): Promise<Run> {
  const rssFile = join(root, `rss-${Math.random().toString(36).slice(2)}`);
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    // NODE_OPTIONS may not carry --cpu-prof: it goes on the command line of the baton processes only.
    const profile = PROF && (args[0] === BIN || args[0] === BASE_BIN) ? ['--cpu-prof', `--cpu-prof-dir=${PROF}`] : [];
    execFile(process.execPath, [...profile, ...args], { env: { ...process.env, HOME: home, BATON_HOME: dataDir, NODE_OPTIONS: `--require ${RSS_HOOK}`, BATON_BENCH_RSS_FILE: rssFile }, maxBuffer: 1 << 26 }, async (error, out, err) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (error) return fail(new Error(`${args.join(' ')}: ${error.message} ${out.slice(0, 1500)} ${err.slice(0, 500)}`));
      const [rssKb, cpuUs] = (await readFile(rssFile, 'utf8').catch(() => '0 0')).split(' ').map(Number);
      done({ ms, cpuMs: cpuUs! / 1000, rssMb: rssKb! / 1024, out });
    });
  });
}

const importArgs = (bin: string) => [bin, 'handoff', '--from', 'claude', '--session', transcript, '--dry-run', '--no-launch', '--json'];
const floors: Run[] = [];
const redactFloors: Run[] = [];
const sealFloors: Run[] = [];
const fullFloors: Run[] = [];
const summaryFloors: Run[] = [];
const imports: Run[] = [];
const baseImports: Run[] = [];
let messages = 0;
for (let r = 0; r < RUNS; r++) {
  floors.push(await run([PARSE_FLOOR, transcript], join(root, `floor-${r}`)));
  redactFloors.push(await run([importFloor, transcript, 'redact'], join(root, `floor-${r}`)));
  if (ENCRYPTED) sealFloors.push(await run([importFloor, transcript, 'seal', ...encryptArg], join(root, `floor-${r}`)));
  fullFloors.push(await run([importFloor, transcript, 'full', join(root, `floor-${r}.jsonl`), ...encryptArg], join(root, `floor-${r}`)));
  summaryFloors.push(await run([importFloor, transcript, 'summary', join(root, `floor-${r}.jsonl`), ...encryptArg], join(root, `floor-${r}`)));
  if (BASE_BIN) baseImports.push(await run(importArgs(BASE_BIN), join(root, `base-${r}`)));
  // A fresh data directory each run: an imported session already in the store is not imported again.
  const dataDir = join(root, `data-${r}`);
  const done = await run(importArgs(BIN), dataDir);
  const answer = JSON.parse(done.out) as { ok: boolean; answer?: { manifest?: { context?: { message_count?: number } } } };
  if (!answer.ok) throw new Error(`import failed: ${done.out.slice(0, 500)}`);
  messages = answer.answer?.manifest?.context?.message_count ?? 0;
  imports.push(done);
  // Under bench/with-secret-service.ts the new store is encrypted at rest (on by default): the probe's answer must be the import's.
  if (existsSync(join(dataDir, 'encryption.json')) !== ENCRYPTED) throw new Error(`the import's store is ${ENCRYPTED ? 'not ' : ''}encrypted, unlike the probe's`);
  await rm(dataDir, { recursive: true, force: true });
}

const med = (runs: Run[], key: keyof Omit<Run, 'out'>) => summarize(runs.map((x) => x[key])).p50;
console.log(`\n${ENCRYPTED ? 'ENCRYPTED at rest' : 'not encrypted'}: Claude Code transcript: ${(inputBytes / 1e6).toFixed(1)} MB, ${messages.toLocaleString('en')} messages imported; ${RUNS} runs, medians; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
// Each floor part's CPU is the difference between a process that does it and one that stops before it.
const parseCpu = med(floors, 'cpuMs');
const redactCpu = med(redactFloors, 'cpuMs');
const sealCpu = ENCRYPTED ? med(sealFloors, 'cpuMs') : redactCpu;
const fullCpu = med(fullFloors, 'cpuMs');
const summaryCpu = med(summaryFloors, 'cpuMs');
console.log('Floor parts (CPU ms, user + system):');
printTable([
  { part: 'parse: 1 MiB reads + JSON.parse of every line (parse-floor.cjs)', 'CPU ms': parseCpu.toFixed(0), 'process CPU ms': parseCpu.toFixed(0), 'process ms': med(floors, 'ms').toFixed(0), 'peak RSS MB': med(floors, 'rssMb').toFixed(0) },
  { part: '+ redaction: StreamRedactor over every line\'s message, 1 MiB batches', 'CPU ms': (redactCpu - parseCpu).toFixed(0), 'process CPU ms': redactCpu.toFixed(0), 'process ms': med(redactFloors, 'ms').toFixed(0), 'peak RSS MB': med(redactFloors, 'rssMb').toFixed(0) },
  ...(ENCRYPTED ? [{ part: '+ each message\'s line serialised and sealed: one AES-256-GCM seal, base64 line', 'CPU ms': (sealCpu - redactCpu).toFixed(0), 'process CPU ms': sealCpu.toFixed(0), 'process ms': med(sealFloors, 'ms').toFixed(0), 'peak RSS MB': med(sealFloors, 'rssMb').toFixed(0) }] : []),
  { part: `+ write one ${ENCRYPTED ? 'sealed ' : ''}JSONL line a message, fsync, read back, sha256`, 'CPU ms': (fullCpu - sealCpu).toFixed(0), 'process CPU ms': fullCpu.toFixed(0), 'process ms': med(fullFloors, 'ms').toFixed(0), 'peak RSS MB': med(fullFloors, 'rssMb').toFixed(0) },
  { part: '+ summary totals and anchors: LandingTotals over each message', 'CPU ms': (summaryCpu - fullCpu).toFixed(0), 'process CPU ms': summaryCpu.toFixed(0), 'process ms': med(summaryFloors, 'ms').toFixed(0), 'peak RSS MB': med(summaryFloors, 'rssMb').toFixed(0) },
]);
const row = (name: string, runs: Run[]) => ({
  measure: name,
  ms: med(runs, 'ms').toFixed(0),
  'CPU ms': med(runs, 'cpuMs').toFixed(0),
  'peak RSS MB': med(runs, 'rssMb').toFixed(0),
  // The bare-parse ratio stays beside the full floor's, so nobody reads one for the other.
  'ms / parse': (med(runs, 'ms') / med(floors, 'ms')).toFixed(2),
  'CPU / parse': (med(runs, 'cpuMs') / parseCpu).toFixed(2),
  'ms / full floor': (med(runs, 'ms') / med(fullFloors, 'ms')).toFixed(2),
  'CPU / full floor': (med(runs, 'cpuMs') / fullCpu).toFixed(2),
  'CPU / floor + summary': (med(runs, 'cpuMs') / summaryCpu).toFixed(2),
});
console.log(`Import against the bare parse and the full floor (parse + redaction + ${ENCRYPTED ? 'one seal per record + ' : ''}write/fsync/read-back/sha256):`);
printTable([
  row('floor: parse', floors),
  row('floor: full', fullFloors),
  row('floor: full + summary', summaryFloors),
  ...(BASE_BIN ? [row('before: import (base build)', baseImports)] : []),
  row('import: baton handoff --from claude --dry-run', imports),
]);
if (!process.env.BATON_BENCH_KEEP) await rm(root, { recursive: true, force: true });
else console.log(`kept ${transcript}`);
