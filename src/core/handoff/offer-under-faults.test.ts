import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/manifest.js';
import { connectEndpoint } from '../transport/client.js';
import { loadOrCreateToken, resolveEndpoint } from '../transport/endpoint.js';
import type { Answer } from '../transport/types.js';
import { createHandoffFixture, type HandoffFixture } from './test-support/handoff-fixture.js';
import { seededRandom as mulberry32 } from '../test-support/seeded-random.js';

const DISTINCT = Number(process.env.BATON_FAULT_DISTINCT ?? 100);
const OFFERS = Number(process.env.BATON_FAULT_OFFERS ?? 1_000);
/** Chance that the receiver is killed (-9) while an offer is under way. */
const KILL_PROBABILITY = 0.04;
const CHILD = join(import.meta.dirname, 'test-support', 'receiver-child.ts');

let fixture: HandoffFixture;
let receiver: ChildProcess | null = null;


/** Each receiver child with a promise that settles when it has exited, however often it is killed. */
const exited = new WeakMap<ChildProcess, Promise<void>>();

function startReceiver(dataDir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let ready = false;
    exited.set(child, new Promise((done) => child.once('exit', () => done())));
    child.once('error', reject);
    child.stdout!.on('data', (d: Buffer) => {
      if (!ready && d.toString().includes('ready')) {
        ready = true;
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`receiver exited before it was ready (${code})`));
    });
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  return exited.get(child) ?? Promise.resolve();
}

beforeAll(async () => {
  fixture = await createHandoffFixture();
});
afterAll(async () => {
  if (receiver) await kill(receiver);
  await fixture.dispose();
});

describe('idempotent offers under receiver crashes', () => {
  it(`${OFFERS} offers of ${DISTINCT} handoffs in random order, receiver killed at random → each accepted exactly once`, async () => {
    const manifests: Manifest[] = [];
    for (let i = 0; i < DISTINCT; i++) manifests.push((await fixture.landed(3, `session ${i}`)).manifest);
    // A plain seeded PRNG: fast-check's generators lean towards edge values, which would kill on almost every offer.
    const random = mulberry32(4242);
    const order = Array.from({ length: OFFERS }, () => Math.floor(random() * DISTINCT));
    const kills = Array.from({ length: OFFERS }, () => random());
    // Every handoff is offered at least once, so each must end with a receipt.
    for (let i = 0; i < DISTINCT; i++) order[i * 10] = i;

    const endpoint = resolveEndpoint(fixture.dataDir, {});
    receiver = await startReceiver(fixture.dataDir);
    const token = await loadOrCreateToken(endpoint.tokenPath);
    const answers = new Map<number, Answer[]>();
    let crashes = 0;

    for (let n = 0; n < OFFERS; n++) {
      const index = order[n]!;
      const killNow = kills[n]! < KILL_PROBABILITY;
      let answer: Answer | null = null;
      let victim: ChildProcess | null = killNow ? receiver : null;
      while (!answer) {
        try {
          const client = await connectEndpoint({ endpoint, token, timeoutMs: 2_000 });
          const pending = client.request('handoff.offer', { manifest: manifests[index] }, { timeoutMs: 5_000 });
          if (victim) {
            // Kill while the offer is in flight: the receiver may die before, during or after writing.
            const target = victim;
            setTimeout(() => void kill(target), Math.floor((kills[n]! / KILL_PROBABILITY) * 20));
          }
          answer = await pending.finally(() => client.close());
        } catch {
          answer = null;
        }
        if (process.env.BATON_FAULT_DEBUG) console.log(n, index, victim ? "kill" : "", answer ? answer.status ?? answer.code : "no answer");
        if (victim || !answer) {
          await kill(receiver!);
          crashes++;
          receiver = await startReceiver(fixture.dataDir);
          victim = null;
        }
      }
      answers.set(index, [...(answers.get(index) ?? []), answer]);
    }

    expect(crashes).toBeGreaterThan(10);
    expect(answers.size).toBe(DISTINCT);
    const sessions = await fixture.store.list();
    expect(sessions).toHaveLength(DISTINCT);
    for (const [index, list] of answers) {
      const manifest = manifests[index]!;
      for (const answer of list) expect(answer.ok, JSON.stringify(answer)).toBe(true);
      // The first answer a client saw may already be a duplicate (killed after the receipt, before the reply).
      expect(['accepted', 'duplicate']).toContain(list[0]!.status);
      for (const later of list.slice(1)) expect(later.status).toBe('duplicate');
      const receipt = await fixture.store.getReceipt(manifest.handoff_id);
      expect(receipt?.sessionId).toBe(manifest.session_id);
      // Exactly one claim per handoff, however often the receiver died.
      expect((await fixture.store.getSession(manifest.session_id)).holder.epoch).toBe(2);
    }
  }, 240_000);
});
