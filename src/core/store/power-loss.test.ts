import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FaultFs } from '../fs/fault-fs.js';
import { openStore } from './index.js';
import { runScenario, type Ack } from './test-support/crash-scenario.js';
import { verifyAfterCrash } from './test-support/verify-store.js';
import { fastTmpRoot } from './test-support/temp-dir.js';

/**
 * Power loss through the injectable fs layer: the scenario stops after its K-th op, then every file
 * goes back to what was last fsynced ("drop"), or keeps its new size with garbage in the extended
 * region ("garbage"). Recovery must keep every acknowledged record and repair every torn tail.
 */
const VARIANTS = [0, 1];
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(fastTmpRoot(), 'baton-powerloss-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function trial(root: string, variant: number, k: number, mode: 'drop' | 'garbage'): Promise<{ acks: Ack[]; fs: FaultFs }> {
  const fs = new FaultFs({ trackPowerLoss: true, failAt: k + 1, failForever: true, errno: 'EIO' });
  const acks: Ack[] = [];
  // The power may go while the store is still opening: that is a trial too.
  const store = await openStore(root, { fs, metadataFlushMs: 600_000 }).catch(() => undefined);
  if (store) {
    await runScenario(store, variant, (a) => acks.push(a), fs).catch(() => undefined);
    await store.close().catch(() => undefined);
  }
  await fs.powerLoss(mode);
  return { acks, fs };
}

describe('power loss (injectable fs)', () => {
  for (const mode of ['drop', 'garbage'] as const) {
    it(`${mode}: every op boundary of the scenario recovers with nothing acknowledged lost`, async () => {
      const totals = { trials: 0, tornTailsRepaired: 0, corrupted: 0, lost: 0, duplicates: 0, tornTailsLeft: 0, midDamage: 0 };
      const failures: string[] = [];
      for (const variant of VARIANTS) {
        const dryRoot = join(work, `${mode}-dry-${variant}`);
        const dry = new FaultFs({ trackPowerLoss: true });
        const store = await openStore(dryRoot, { fs: dry, metadataFlushMs: 600_000 });
        await runScenario(store, variant, () => undefined, dry);
        const ops = dry.count;
        for (let k = 1; k <= ops; k++) {
          const root = join(work, `${mode}-${variant}-${k}`);
          const { acks } = await trial(root, variant, k, mode);
          const v = await verifyAfterCrash(root, acks);
          totals.trials += 1;
          totals.tornTailsRepaired += v.tornTailsRepaired;
          totals.corrupted += v.corrupted.length;
          totals.lost += v.lost.length;
          totals.duplicates += v.duplicates.length;
          totals.tornTailsLeft += v.tornTailsLeft;
          totals.midDamage += v.midDamage;
          const bad = [...v.corrupted, ...v.lost, ...v.duplicates, ...v.problems];
          if (bad.length) failures.push(`variant ${variant} K=${k}: ${bad.join(' | ')}`);
          else await rm(root, { recursive: true, force: true });
        }
      }
      console.log(`power loss (${mode}): ${JSON.stringify(totals)}`);
      expect(failures.slice(0, 10)).toEqual([]);
      expect(totals.corrupted + totals.lost + totals.duplicates + totals.tornTailsLeft + totals.midDamage).toBe(0);
      if (mode === 'garbage') expect(totals.tornTailsRepaired).toBeGreaterThan(0);
    }, 180_000);
  }
});
