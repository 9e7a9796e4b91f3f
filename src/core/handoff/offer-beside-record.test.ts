import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { newId } from '../../shared/ids.js';
import { delegatingFs } from '../fs/delegating-fs.js';
import { nodeDurableFs, type DurableFs } from '../fs/durable-fs.js';
import { openStore } from '../store/index.js';
import type { SessionStore } from '../store/types.js';
import { HOSTED_HANDOFF_METHOD } from './hosted-handoff-request.js';
import { createHostedHandoff } from './hosted-handoff.js';
import { DESKTOP_CAPABILITIES } from '../host/capabilities.js';
import { createReceiver } from './receiver.js';
import { fileWithSync } from '../store/test-support/file-with-sync.js';

/**
 * A hosted handoff's offer (issue 20, "offer and take"): the receiver in the host verifies while
 * the sender's record of the offer (handoff.json) is fsynced, and writes nothing of the take
 * before that record is durable (a re-offer after a crash reuses its handoff id: never a second take).
 */

/** How long the record's fsync waits for the verification's read before the test calls the two sequential. */
const OVERLAP_WAIT_MS = 5_000;
/** How long the record's fsync is held after that, for a baton written too early to show up. */
const GATE_WAIT_MS = 300;
/** How long the store's look-up of a new session id is held (longer than a capture of a small repository takes here). */
const LOOKUP_HOLD_MS = 1_500;

let root: string;
let work: string;
let store: SessionStore;
/** The host's marks of the last handOff() (the CLI's trace places them after the request left). */
let lastHostMs: Record<string, number> = {};
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-offer-record-'));
  work = join(root, 'work');
  await mkdir(work);
});
afterEach(async () => {
  await store?.close();
  await rm(root, { recursive: true, force: true });
});


/** The host's hosted handoff with its own receiver over `store`, and one single-part request of 150 messages. */
async function handOff(): Promise<{ category: string; message: string; handoffId: string | null; sessionId: string }> {
  const receive = createReceiver({ store, capabilities: DESKTOP_CAPABILITIES, holder: 'desktop' });
  const hosted = createHostedHandoff({
    store,
    endpoint: { address: join(root, 'none.sock'), dir: root, tokenPath: join(root, 'token') },
    token: Buffer.alloc(32),
    take: (manifest, connection) => receive({ id: 'take', method: 'handoff.offer', params: { manifest } }, connection),
  });
  const lines = Buffer.from(Array.from({ length: 150 }, (_, i) => `${JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` })}\n`).join(''));
  const params = { sessionId: newId('s-'), cwd: work, source: 'm.jsonl', bytes: lines.length, parts: 1, part: 0, data: lines.toString('base64') };
  const answer = (await hosted.handle({ id: '1', method: HOSTED_HANDOFF_METHOD, params }, { signal: new AbortController().signal })) as { ok: boolean; outcome: { category: string; message: string; handoffId: string | null; sessionId: string }; hostMs: Record<string, number> };
  expect(answer.ok).toBe(true);
  lastHostMs = answer.hostMs;
  return answer.outcome;
}

describe("a hosted handoff's offer beside the sender's record (issue 20)", () => {
  it("verifies while the record's fsync runs, and writes the baton only once the record is durable", async () => {
    const events: string[] = [];
    let verificationRead!: () => void;
    const verifying = new Promise<void>((resolve) => (verificationRead = resolve));
    let batonWritten!: () => void;
    const batonWriting = new Promise<void>((resolve) => (batonWritten = resolve));
    let overlapped: boolean | undefined;
    let landed = false;
    const fs: DurableFs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const file = await nodeDurableFs.open(path, flags, mode);
        const name = basename(path);
        // The landing's read-back opens the log too; only the reads after handoff.json is written count.
        if (landed && name === 'messages.jsonl' && flags === 'r') {
          events.push('log read');
          verificationRead();
        }
        if (name.startsWith('.handoff.json.') && flags === 'wx') {
          landed = true;
          return fileWithSync(file, async () => {
            events.push('record fsync');
            // Held until the receiver's verification read the log: one after the other would wait here in vain.
            overlapped = await Promise.race([verifying.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), OVERLAP_WAIT_MS))]);
            // Then held a while longer: a receiver that did not wait for the record would write the baton meanwhile.
            await Promise.race([batonWriting, new Promise((resolve) => setTimeout(resolve, GATE_WAIT_MS))]);
            await file.sync();
            events.push('record durable');
          });
        }
        if (landed && name.startsWith('.session.json.') && flags === 'wx') {
          events.push('baton written');
          batonWritten();
        }
        return file;
      },
    });
    store = await openStore(join(root, 'data'), { keyStore: null, fs });
    const answer = await handOff();
    expect(answer.category).toBe('accepted');
    expect(overlapped).toBe(true);
    expect(events.indexOf('log read')).toBeGreaterThan(events.indexOf('record fsync'));
    expect(events.indexOf('log read')).toBeLessThan(events.indexOf('record durable'));
    expect(events.indexOf('baton written')).toBeGreaterThan(events.indexOf('record durable'));
  }, 20_000);

  it("the answer's hostMs names each part of the offer and the take, in the order the crash order allows", async () => {
    store = await openStore(join(root, 'data'), { keyStore: null });
    expect((await handOff()).category).toBe('accepted');
    const at = lastHostMs;
    for (const name of ['host-landed', 'host-summary', 'host-manifest', 'host-verified', 'host-recorded', 'host-verdict', 'host-taken', 'host-receipt', 'host-answered']) expect(at[name], name).toBeTypeOf('number');
    expect(at['host-summary']).toBeGreaterThanOrEqual(at['host-landed']!);
    expect(at['host-manifest']).toBeGreaterThanOrEqual(at['host-summary']!);
    // The baton only after the record is durable; the receipt after the baton and the verdict.
    expect(at['host-taken']).toBeGreaterThanOrEqual(at['host-recorded']!);
    expect(at['host-receipt']).toBeGreaterThanOrEqual(Math.max(at['host-taken']!, at['host-verdict']!));
    expect(at['host-answered']).toBeGreaterThanOrEqual(at['host-receipt']!);
  }, 20_000);

  it("starts the workspace capture (git) beside the store's look-ups of the request's id, not after them", async () => {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: work });
    await writeFile(join(work, 'a.txt'), 'a\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-qm', 'start');
    await writeFile(join(work, 'a.txt'), 'changed\n');
    // The look-up of the new id (is it saved already?) held for LOOKUP_HOLD_MS: git, which does
    // not need its answer, finishes meanwhile. Before, the capture started only once it came.
    let lookups = 0;
    const fs: DurableFs = delegatingFs(nodeDurableFs, {
      stat: async (path) => {
        // The look-up's stats (the live session.json, then the archived one) are the first under sessions/.
        if (basename(path) === 'session.json' && lookups++ < 2) await new Promise((resolve) => setTimeout(resolve, LOOKUP_HOLD_MS));
        return nodeDurableFs.stat(path);
      },
    });
    store = await openStore(join(root, 'data'), { keyStore: null, fs });
    expect((await handOff()).category).toBe('accepted');
    expect(lastHostMs['host-looked-up']).toBeGreaterThanOrEqual(LOOKUP_HOLD_MS - 5);
    expect(lastHostMs['host-captured']).toBeLessThan(lastHostMs['host-looked-up']!);
  }, 20_000);

  it('a record that cannot be saved: nothing is taken (no baton, no receipt), and the answer says the session was saved but not offered', async () => {
    let landed = false;
    const fs: DurableFs = delegatingFs(nodeDurableFs, {
      open: async (path, flags, mode) => {
        const name = basename(path);
        if (name.startsWith('.handoff.json.') && flags === 'wx') {
          landed = true;
          const file = await nodeDurableFs.open(path, flags, mode);
          return fileWithSync(file, async () => {
            throw Object.assign(new Error('EIO: the record failed'), { code: 'EIO' });
          });
        }
        return nodeDurableFs.open(path, flags, mode);
      },
    });
    store = await openStore(join(root, 'data'), { keyStore: null, fs });
    const answer = await handOff();
    expect(landed).toBe(true);
    expect(answer.category).toBe('rejected');
    expect(answer.message).toMatch(/saved but could not be offered: I\/O error \(EIO\) while saving the handoff manifest/);
    const session = await store.getSession(answer.sessionId);
    expect(session.holder.who).not.toBe('desktop');
    expect(session.holder.handoffId).toBeUndefined();
    expect(await readdir(join(root, 'data', 'receipts')).catch(() => [])).toEqual([]);
  }, 20_000);
});
