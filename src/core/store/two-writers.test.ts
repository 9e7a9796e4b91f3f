import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from './index.js';
import { fastTmpRoot } from './test-support/temp-dir.js';

/** Two real processes × 1,000 updates of one session.json: CAS applies all 2,000; blind writes lose some. */
const UPDATES = 1000;
const CHILD = fileURLToPath(new URL('./test-support/cas-child.ts', import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(fastTmpRoot(), 'baton-2w-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

function child(root: string, id: string, mode: 'cas' | 'blind'): Promise<{ applied: number; conflicts: number }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', CHILD, root, id, String(UPDATES), mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as { applied: number; conflicts: number }) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

async function race(mode: 'cas' | 'blind'): Promise<{ counter: number; conflicts: number }> {
  const root = join(work, mode);
  const store = await openStore(root);
  const s = await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: 't', source: { tool: 'baton' }, holder: 'terminal', extra: { counter: 0 } });
  const [a, b] = await Promise.all([child(root, s.id, mode), child(root, s.id, mode)]);
  const doc = (await store.getSession(s.id)) as Record<string, unknown>;
  await store.close();
  return { counter: doc.counter as number, conflicts: a.conflicts + b.conflicts };
}

describe('two writers', () => {
  it('with compare-and-swap: exactly 2,000 updates applied', async () => {
    const { counter, conflicts } = await race('cas');
    console.log(`two writers with CAS: counter ${counter}, ${conflicts} conflicts retried`);
    expect(counter).toBe(2 * UPDATES);
  }, 180_000);

  it('without it (blind read-modify-write) updates are lost, so the CAS test can fail', async () => {
    const { counter } = await race('blind');
    console.log(`two writers without CAS: counter ${counter} of ${2 * UPDATES}`);
    expect(counter).toBeLessThan(2 * UPDATES);
  }, 180_000);
});
