/**
 * Issue 15, the new host with a warm cache without the page's noise: a real `baton serve --json`
 * on the candidates corpus's own data directory, timed to the address line and to its first answer
 * (a GET of the page's URL), with the host's CPU (user + system, /proc/PID/stat) at each. The CPU
 * counts V8's background threads too (a WebAssembly compile, concurrent marking); the load of a
 * shared machine inflates it much less than the wall times.
 * --before=other/bin/baton.js: that build too, run for run alternately with this one.
 * --before-data=data-before: the before build's data directory is that folder of --dir (its own
 * index, when the builds' index formats differ).
 * Then the page's first `agents:list` (its first 200 rows) over the page's WebSocket, as the page
 * asks it; --ask-after=MS waits that long after the address first (a browser opening the page:
 * ~300-500 ms here), so the host's start behind its address is timed as the page meets it.
 *
 *   npm run build && npx tsx bench/renderer/host-start-cpu.ts --dir=/tmp/c15f/full [--runs=8] [--ask-after=400] [--before=other/bin/baton.js] [--cpu-prof=DIR]
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const dir = resolve(args.get('dir') ?? '/tmp/c15f/full');
const runs = Number(args.get('runs') ?? 8);
const BATON = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const ASK_AFTER_MS = Number(args.get('ask-after') ?? 0);
const BEFORE = args.has('before') ? resolve(args.get('before')!) : undefined;
const env = { ...process.env, HOME: join(dir, 'home'), BATON_HOME: join(dir, 'data'), XDG_RUNTIME_DIR: join(dir, 'run') };
const BEFORE_DATA = args.has('before-data') ? join(dir, args.get('before-data')!) : undefined;
/** --cpu-prof=DIR: each host writes a V8 CPU profile there at its exit (bench/renderer/cpu-profile-split.ts reads them). */
const CPU_PROF_DIR = args.has('cpu-prof') ? resolve(args.get('cpu-prof')!) : undefined;

interface Start {
  addressMs: number;
  addressCpuMs: number;
  answerMs: number;
  answerCpuMs: number;
  listMs: number;
  listCpuMs: number;
}

/** The page's first `agents:list` over its WebSocket (the token and origin the page has). */
async function firstRows(url: URL): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${url.port}/ws?token=${url.searchParams.get('token')}`, { origin: `http://127.0.0.1:${url.port}` });
  try {
    await new Promise((done, fail) => ws.once('open', done).once('error', fail));
    const answered = new Promise<{ result: { ok: boolean; value?: { total?: number } } }>((done) =>
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { kind: string; id: number; result: { ok: boolean } };
        if (message.kind === 'response' && message.id === 1) done(message);
      }),
    );
    ws.send(JSON.stringify({ kind: 'request', id: 1, channel: 'agents:list', payload: { offset: 0, limit: 200 } }));
    const { result } = await answered;
    if (!result.ok) throw new Error(`agents:list failed: ${JSON.stringify(result)}`);
  } finally {
    ws.terminate();
  }
}

/** The process's CPU so far (user + system, in 10 ms ticks), ms. */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ').pop()!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(bin: string): Promise<Start> {
  const t0 = performance.now();
  const dataDir = bin === BEFORE && BEFORE_DATA ? BEFORE_DATA : env.BATON_HOME;
  const profile = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`, `--cpu-prof-name=${bin === BEFORE ? 'before' : 'this'}-${Date.now()}.cpuprofile`] : [];
  const child = spawn(process.execPath, [...profile, bin, 'serve', '--json'], { env: { ...env, BATON_HOME: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((done, fail) => {
    child.stdout.once('data', (d: Buffer) => done(d.toString()));
    child.once('exit', (code) => fail(new Error(`baton serve exited (${code})`)));
  });
  const addressMs = performance.now() - t0;
  const addressCpuMs = await cpuMs(child.pid!);
  const url = new URL((JSON.parse(line) as { url: string }).url);
  if (ASK_AFTER_MS > 0) await new Promise((done) => setTimeout(done, ASK_AFTER_MS));
  await (await fetch(url)).text();
  const answerMs = performance.now() - t0;
  const answerCpuMs = await cpuMs(child.pid!);
  await firstRows(url);
  const listMs = performance.now() - t0;
  const listCpuMs = await cpuMs(child.pid!);
  // The profile's clock is the monotonic one process.hrtime reads: the split cuts it at this answer.
  if (CPU_PROF_DIR) await writeFile(join(CPU_PROF_DIR, `${profile[2]!.slice('--cpu-prof-name='.length)}.cut`), `${process.hrtime.bigint() / 1000n}\n`);
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  return { addressMs, addressCpuMs, answerMs, answerCpuMs, listMs, listCpuMs };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const builds = BEFORE ? { before: BEFORE, 'this build': BATON } : { 'this build': BATON };
const results = new Map<string, Start[]>(Object.keys(builds).map((name) => [name, []]));
for (let run = 0; run < runs; run++) {
  // Rounds alternate which build starts first: neither always follows the other's exit (its page cache, its GC).
  const order = run % 2 === 0 ? Object.entries(builds) : Object.entries(builds).reverse();
  for (const [name, bin] of order) results.get(name)!.push(await start(bin));
}
const row = (of: (s: Start) => number) => Object.fromEntries([...results].map(([name, starts]) => [name, Math.round(median(starts.map(of)))]));
console.log(`medians of ${runs} starts per build, ms${ASK_AFTER_MS ? `, the page asked ${ASK_AFTER_MS} ms after the address` : ''}; load average: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
console.table({
  'address printed': row((s) => s.addressMs),
  'host CPU to the address': row((s) => s.addressCpuMs),
  'first answer (the page)': row((s) => s.answerMs),
  'host CPU to the first answer': row((s) => s.answerCpuMs),
  'first agents:list answered': row((s) => s.listMs),
  'host CPU to agents:list': row((s) => s.listCpuMs),
});
if (BEFORE) {
  // Each round's pair (the two builds started one after the other): the median of its differences.
  const [before, after] = [results.get('before')!, results.get('this build')!];
  const paired = (of: (s: Start) => number) => Math.round(median(after.map((s, i) => of(s) - of(before[i]!))));
  console.log(`paired (this build - before), median of ${runs} rounds: host CPU to the address ${paired((s) => s.addressCpuMs)} ms, to the first answer ${paired((s) => s.answerCpuMs)} ms, to agents:list ${paired((s) => s.listCpuMs)} ms; agents:list answered ${paired((s) => s.listMs)} ms`);
}
