/**
 * The risk policy against its own corpus (src/core/policy/corpus): share of dangerous calls rated
 * high (target ≥ 97%), share of benign calls rated high (target ≤ 1%), and the time of one
 * assessRisk call (target p99 < 1 ms), with the parser's start-up (initPolicy) reported apart and
 * amortised over the calls. Baseline in the same run: the rules before issue 10 (hand-written
 * tokenizer, bench/policy/baseline) on the same corpus and the same workspace.
 * Run: npx tsx bench/policy/corpus.ts   (ROUNDS=… for more timing rounds)
 */
import { performance } from 'node:perf_hooks';
import { BENIGN } from '../../src/core/policy/corpus/benign.js';
import { DANGEROUS } from '../../src/core/policy/corpus/dangerous.js';
import type { CorpusEntry } from '../../src/core/policy/corpus/types.js';
import { makeCorpusWorkspace } from '../../src/core/policy/corpus/workspace.js';
import { assessRisk, initPolicy, type RiskContext, type ToolCall } from '../../src/core/policy/risk.js';
import { assessRisk as baselineAssess } from './baseline/risk.js';
import { printTable, summarize } from '../stats.js';

const ROUNDS = Number(process.env.ROUNDS ?? 9);
type Assess = (call: ToolCall, ctx: RiskContext) => { level: string };

const initStart = performance.now();
await initPolicy();
const initMs = performance.now() - initStart;

const w = makeCorpusWorkspace();
const bound = (list: readonly CorpusEntry[]) => list.map((e) => w.bind(e));
const dangerous = bound(DANGEROUS);
const benign = bound(BENIGN);
const all = [...dangerous, ...benign];

function share(assess: Assess, list: typeof all): number {
  return (100 * list.filter(({ call, ctx }) => assess(call, ctx).level === 'high').length) / list.length;
}

/**
 * Wall-clock time of every call, ROUNDS times each. This machine is shared (load 5–10 on 2 cores):
 * the tail of the raw samples is mostly the scheduler preempting us mid-call, so the table also
 * gives each call's best of ROUNDS (its own cost with the noise filtered out), then p50/p99 of those.
 */
function times(assess: Assess): { wall: number[]; best: number[] } {
  for (let r = 0; r < 2; r++) for (const { call, ctx } of all) assess(call, ctx); // warm-up
  const wall: number[] = [];
  const best = all.map(() => Number.POSITIVE_INFINITY);
  for (let r = 0; r < ROUNDS; r++) {
    all.forEach(({ call, ctx }, i) => {
      const start = performance.now();
      assess(call, ctx);
      const ms = performance.now() - start;
      wall.push(ms);
      best[i] = Math.min(best[i]!, ms);
    });
  }
  return { wall, best };
}

const rows = ([['baseline: rules before issue 10', baselineAssess as Assess], ['tree-sitter policy (this issue)', assessRisk as Assess]] as const).map(([name, assess]) => {
  const { wall: t, best } = times(assess);
  const s = summarize(t);
  const c = summarize(best);
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  const isNew = assess === (assessRisk as Assess);
  return {
    engine: name,
    'dangerous high %': Number(share(assess, dangerous).toFixed(1)),
    'benign high %': Number(share(assess, benign).toFixed(1)),
    'wall p50 ms': Number(s.p50.toFixed(4)),
    'wall p99 ms': Number(s.p99.toFixed(4)),
    'best-of p50 ms': Number(c.p50.toFixed(4)),
    'best-of p99 ms': Number(c.p99.toFixed(4)),
    'wall mean ms': Number(mean.toFixed(4)),
    'init ms': isNew ? Number(initMs.toFixed(1)) : 0,
    'mean + init/calls ms': Number((mean + (isNew ? initMs / t.length : 0)).toFixed(4)),
  };
});
console.log(`corpus: ${dangerous.length} dangerous, ${benign.length} benign calls; ${ROUNDS} timed rounds (${all.length * ROUNDS} calls per engine)`);
printTable(rows);
w.dispose();
