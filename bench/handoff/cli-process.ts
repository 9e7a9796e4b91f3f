// The whole `baton handoff` process, Node start-up included, for a 150- and a 10,000-message
// session, against the floor of starting Node itself, measured in the same run.
//   npm run build:node && npx tsx bench/handoff/cli-process.ts [runs]
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostServices } from '../../src/core/host/host-services.js';
import { printTable, summarize } from '../stats.js';

const RUNS = Number(process.argv[2] ?? 30);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.js');

const root = await mkdtemp(join(tmpdir(), 'baton-bench-cli-'));
const dataDir = join(root, 'data');
const services = await startHostServices({ dataDir, kind: 'browser', capabilities: ['conversation', 'approval-ui'] });

async function conversation(count: number): Promise<string> {
  const file = join(root, `conv-${count}.jsonl`);
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}` }),
  );
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

/** Wall time of one process; async, so the in-process receiver keeps answering meanwhile. */
function time(args: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { env: { ...process.env, BATON_HOME: dataDir } }, (error, stdout, stderr) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (error) reject(new Error(`${args.join(' ')} failed: ${stdout}${stderr}`));
      else resolve(ms);
    }),
  );
}

async function repeat(n: number, args: string[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await time(args));
  return times;
}

const floor = await repeat(RUNS, ['-e', '']);
const rows = [{ case: 'node -e "" (floor)', ...summarize(floor), 'x floor': 1 }];
for (const count of [150, 10_000]) {
  const file = await conversation(count);
  const runs = await repeat(count > 1000 ? Math.max(5, Math.floor(RUNS / 3)) : RUNS, [BIN, 'handoff', '--cwd', root, '--title', `bench ${count}`, '--messages', file, '--no-launch', '--json']);
  const s = summarize(runs);
  rows.push({ case: `baton handoff, ${count} messages`, ...s, 'x floor': s.p50 / summarize(floor).p50 });
}
printTable(rows);
await services.close();
await rm(root, { recursive: true, force: true });
