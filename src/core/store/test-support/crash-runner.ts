import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenStoreOptions } from '../index.js';
import type { Ack } from './crash-scenario.js';
import { verifyAfterCrash, type Verdict } from './verify-store.js';

/**
 * The crash suites' machinery: children bundled once, spawned with (root, K, variant), each
 * SIGKILLing itself right after its K-th write/fsync/rename; a small pool runs them side by side.
 * Used by the plain suite (crash-suite.test.ts) and the encrypted one (at-rest/).
 */
export interface ChildResult {
  acks: Ack[];
  ops?: number;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Bundled children live inside the repository, so the native keyring package they leave out resolves from node_modules. */
const BUNDLE_DIR = fileURLToPath(new URL('../../../../node_modules/.cache/baton-crash/', import.meta.url));

/** The child's command line; `dispose` removes its bundle. */
export async function bundleChild(childTs: string, name: string): Promise<{ cmd: string[]; dispose: () => Promise<void> }> {
  // A pre-bundled child starts in ~0.1 s instead of ~0.5 s through tsx: 1,000 spawns fit in CI time.
  try {
    const { build } = await import('esbuild');
    const outfile = join(BUNDLE_DIR, `${name}-${process.pid}.mjs`);
    // The keyring binding loads a prebuilt native binary: it stays a package outside the bundle.
    await build({ entryPoints: [childTs], bundle: true, minify: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent', external: ['@napi-rs/keyring'] });
    return { cmd: [outfile], dispose: () => rm(outfile, { force: true }) };
  } catch (error) {
    console.log(`crash suite: esbuild unavailable (${(error as Error).message}); children run through tsx (slower)`);
    return { cmd: ['--import', 'tsx', childTs], dispose: async () => undefined };
  }
}

export function runChild(childCmd: string[], args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...childCmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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

export async function pool<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

export interface CrashTotals {
  trials: number;
  killed: number;
  acked: number;
  sessions: number;
  corrupted: number;
  lost: number;
  duplicates: number;
  tornTailsRepaired: number;
  tornTailsLeft: number;
  midDamage: number;
  problems: number;
}

export interface ScenarioSuiteOptions {
  work: string;
  childCmd: string[];
  trialsMin: number;
  parallel: number;
  /** Prepares a trial's root before its child runs (the encrypted suite writes encryption.json). */
  prepare?: (root: string) => Promise<void>;
  /** How this process opens a trial's store to verify it (the encrypted suite names its key store). */
  verifyStoreOptions?: OpenStoreOptions;
  /**
   * Something outside the product that can fail under a trial (the encrypted suite: its test Secret
   * Service, whose daemon can die mid-call). `mark` runs before each child; `failedUnder` gets the
   * child's stderr and that mark, and names the outside failure, or null when the product is to
   * answer for the result. Such a trial is run again on a fresh root, at most MAX_TRIAL_REDOS times.
   */
  outside?: { mark(): Promise<number>; failedUnder(stderr: string, mark: number): Promise<string | null> };
}

/** Times one trial is run again because something outside the product failed under it. */
export const MAX_TRIAL_REDOS = 2;

/**
 * The scenario suite: each variant's op count comes from a run without a kill; whole variants are
 * taken, in order, until there are at least `trialsMin` trials (K walking every op of each).
 */
export async function runScenarioSuite(o: ScenarioSuiteOptions): Promise<{ totals: CrashTotals; failures: string[]; dryErrors: string[]; redone: string[] }> {
  const plan: Array<{ variant: number; k: number }> = [];
  const variants = Array.from({ length: 20 }, (_, i) => i);
  const counts = new Map<number, number>();
  const dryErrors: string[] = [];
  await pool(variants, o.parallel, async (v) => {
    const root = join(o.work, `dry-${v}`);
    await o.prepare?.(root);
    const dry = await runChild(o.childCmd, [root, '0', String(v)]);
    if (dry.stderr) dryErrors.push(`variant ${v}: ${dry.stderr}`);
    counts.set(v, dry.ops ?? 0);
  });
  for (const v of variants) {
    if (plan.length >= o.trialsMin) break;
    for (let k = 1; k <= counts.get(v)!; k++) plan.push({ variant: v, k });
  }
  const totals: CrashTotals = { trials: 0, killed: 0, acked: 0, sessions: 0, corrupted: 0, lost: 0, duplicates: 0, tornTailsRepaired: 0, tornTailsLeft: 0, midDamage: 0, problems: 0 };
  const failures: string[] = [];
  const redone: string[] = [];
  /** The child's run; a run that something outside the product failed under is done again, on a fresh root. */
  const runTrial = async (v: number, k: number): Promise<{ root: string; res: ChildResult }> => {
    for (let attempt = 0; ; attempt++) {
      const root = join(o.work, `t-${v}-${k}${attempt > 0 ? `-${attempt}` : ''}`);
      await o.prepare?.(root);
      const mark = (await o.outside?.mark()) ?? 0;
      const res = await runChild(o.childCmd, [root, String(k), String(v)]);
      const outside = res.stderr && o.outside ? await o.outside.failedUnder(res.stderr, mark) : null;
      if (outside === null) return { root, res };
      if (attempt === MAX_TRIAL_REDOS) return { root, res: { ...res, stderr: `${outside}, under this trial ${attempt + 1} times: ${res.stderr}` } };
      redone.push(`variant ${v} K=${k}: ${outside}`);
      await rm(root, { recursive: true, force: true });
    }
  };
  await pool(plan, o.parallel, async ({ variant: v, k }) => {
    const { root, res } = await runTrial(v, k);
    const verdict: Verdict = await verifyAfterCrash(root, res.acks, o.verifyStoreOptions);
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
  return { totals, failures, dryErrors, redone };
}
