import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ack } from './test-support/crash-scenario.js';
import { verifyAfterCrash, type Verdict } from './test-support/verify-store.js';
import { fastTmpRoot } from './test-support/temp-dir.js';

/**
 * The crash suite: a real child process runs the scenario and SIGKILLs itself right after its K-th
 * write/fsync/rename, K walking through every step of every operation, for several variants
 * (different batch sizes shift every boundary). Recovery then checks the store.
 */
const TRIALS_MIN = 1000;
/** Children spend part of their life waiting on exec and I/O: a little more than one per core. */
const PARALLEL = 4;
/** Generous: the suite takes ~1–2 min on an idle 2-core machine, more when the machine is shared. */
const SUITE_TIMEOUT_MS = 600_000;
const CHILD_TS = fileURLToPath(new URL('./test-support/crash-child.ts', import.meta.url));

let work: string;
let childCmd: string[];

async function bundleChild(): Promise<string[]> {
  // A pre-bundled child starts in ~0.1 s instead of ~0.5 s through tsx: 1,000 spawns fit in CI time.
  try {
    const { build } = await import('esbuild');
    const outfile = join(work, 'crash-child.mjs');
    await build({ entryPoints: [CHILD_TS], bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
    return [outfile];
  } catch (error) {
    console.log(`crash suite: esbuild unavailable (${(error as Error).message}); children run through tsx (slower)`);
    return ['--import', 'tsx', CHILD_TS];
  }
}

function runChild(root: string, killAt: number, variant: number): Promise<{ acks: Ack[]; ops?: number; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childCmd, root, String(killAt), String(variant)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      const acks: Ack[] = [];
      let ops: number | undefined;
      for (const line of out.split('\n')) {
        if (!line) continue;
        const v = JSON.parse(line) as Ack | { kind: 'done'; ops: number };
        if (v.kind === 'done') ops = v.ops;
        else acks.push(v);
      }
      resolve({ acks, ops, signal, stderr: err });
    });
  });
}

async function pool<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await run(items[next++]!);
  }));
}

beforeAll(async () => {
  work = await mkdtemp(join(fastTmpRoot(), 'baton-crash-'));
  childCmd = await bundleChild();
}, 60_000);

afterAll(() => rm(work, { recursive: true, force: true }));

describe('crash suite (SIGKILL after the K-th write/fsync/rename)', () => {
  it(`≥${TRIALS_MIN} trials: 0 corrupted, 0 acknowledged lost, 0 duplicates, every torn tail repaired, 0 mid-file damage`, async () => {
    const started = Date.now();
    const plan: Array<{ variant: number; k: number }> = [];
    // Each variant's op count comes from a run without a kill (~75 ops each); whole variants are
    // taken, in order, until there are at least TRIALS_MIN trials.
    const variants = Array.from({ length: 20 }, (_, i) => i);
    const counts = new Map<number, number>();
    await pool(variants, PARALLEL, async (v) => {
      const dry = await runChild(join(work, `dry-${v}`), 0, v);
      expect(dry.stderr).toBe('');
      counts.set(v, dry.ops ?? 0);
    });
    for (const v of variants) {
      if (plan.length >= TRIALS_MIN) break;
      for (let k = 1; k <= counts.get(v)!; k++) plan.push({ variant: v, k });
    }
    const totals = { trials: 0, killed: 0, acked: 0, sessions: 0, corrupted: 0, lost: 0, duplicates: 0, tornTailsRepaired: 0, tornTailsLeft: 0, midDamage: 0, problems: 0 };
    const failures: string[] = [];
    await pool(plan, PARALLEL, async ({ variant: v, k }) => {
      const root = join(work, `t-${v}-${k}`);
      const res = await runChild(root, k, v);
      const verdict: Verdict = await verifyAfterCrash(root, res.acks);
      totals.trials += 1;
      if (res.signal === 'SIGKILL') totals.killed += 1;
      totals.acked += res.acks.length;
      totals.sessions += verdict.sessions;
      totals.corrupted += verdict.corrupted.length;
      totals.lost += verdict.lost.length;
      totals.duplicates += verdict.duplicates.length;
      totals.tornTailsRepaired += verdict.tornTailsRepaired;
      totals.tornTailsLeft += verdict.tornTailsLeft;
      totals.midDamage += verdict.midDamage;
      totals.problems += verdict.problems.length;
      const bad = [...verdict.corrupted, ...verdict.lost, ...verdict.duplicates, ...verdict.problems];
      if (bad.length > 0 || res.stderr) failures.push(`variant ${v} K=${k}: ${[...bad, res.stderr].join(' | ')}`);
      if (bad.length === 0) await rm(root, { recursive: true, force: true });
    });
    console.log(`crash suite: ${JSON.stringify(totals)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(totals.trials).toBeGreaterThanOrEqual(TRIALS_MIN);
    expect(totals.killed).toBe(totals.trials);
    expect(totals.corrupted + totals.lost + totals.duplicates + totals.tornTailsLeft + totals.midDamage).toBe(0);
  }, SUITE_TIMEOUT_MS);
});
