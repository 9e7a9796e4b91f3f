// What redaction adds to the whole `baton handoff` process (150 messages, as in
// bench/handoff/cli-process.ts): this checkout's CLI against a baseline CLI built from the commit
// before secretlint (hand-written regexes, titles not redacted), runs interleaved so machine load
// hits both alike. The baseline is built outside the repository:
//   git archive 3867dcf | tar -x -C /tmp/baton-base && ln -s "$PWD/node_modules" /tmp/baton-base/
//   (cd /tmp/baton-base && node scripts/build-cli.js) && npm run build:node
//   BATON_BASELINE=/tmp/baton-base npx tsx bench/redact/handoff-process.ts [runs]
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostServices } from '../../src/core/host/host-services.js';
import { printTable, summarize } from '../stats.js';

const RUNS = Number(process.argv[2] ?? 30);
const BASELINE = process.env.BATON_BASELINE;
if (!BASELINE) throw new Error('set BATON_BASELINE to a checkout of the commit before redaction, built with node scripts/build-cli.js');
const NOW_BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');
const BASE_BIN = join(BASELINE, 'bin', 'baton.js');

const root = await mkdtemp(join(tmpdir(), 'baton-bench-redact-'));
const dataDir = join(root, 'data');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation'] });
const file = join(root, 'conv.jsonl');
await writeFile(
  file,
  Array.from({ length: 150 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}` })).join('\n') + '\n',
);

function time(bin: string): Promise<number> {
  const started = process.hrtime.bigint();
  const args = [bin, 'handoff', '--cwd', root, '--title', 'bench 150', '--messages', file, '--no-launch', '--json'];
  return new Promise((done, fail) =>
    execFile(process.execPath, args, { env: { ...process.env, BATON_HOME: dataDir } }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${bin} failed: ${stdout}${stderr}`));
      else done(Number(process.hrtime.bigint() - started) / 1e6);
    }),
  );
}
function floorRun(): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((done) => execFile(process.execPath, ['-e', '0'], () => done(Number(process.hrtime.bigint() - started) / 1e6)));
}

const floor: number[] = [];
const base: number[] = [];
const now: number[] = [];
await time(BASE_BIN);
await time(NOW_BIN);
for (let i = 0; i < RUNS; i++) {
  floor.push(await floorRun());
  base.push(await time(BASE_BIN));
  now.push(await time(NOW_BIN));
}
const f = summarize(floor);
const b = summarize(base);
const n = summarize(now);
printTable([
  { case: 'node -e 0 (floor)', n: f.n, 'p50 ms': f.p50, 'p95 ms': f.p95, 'x baseline': f.p50 / b.p50 },
  { case: 'baton handoff 150, before (regexes)', n: b.n, 'p50 ms': b.p50, 'p95 ms': b.p95, 'x baseline': 1 },
  { case: 'baton handoff 150, now (secretlint)', n: n.n, 'p50 ms': n.p50, 'p95 ms': n.p95, 'x baseline': n.p50 / b.p50 },
]);
console.log(`redaction adds ${(n.p50 - b.p50).toFixed(1)} ms at p50 (${(((n.p50 - b.p50) / b.p50) * 100).toFixed(0)}%)`);
await services.close();
await rm(root, { recursive: true, force: true });
