import { appendFile, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAD_INITIAL_BYTES } from './limits.js';
import { countingReader } from './reader.js';
import { readAgentSession } from './read-session.js';
import { scanAgentSessions } from './scan.js';
import { claude, claudeLogPath, jsonl, writeLog } from './test-fixtures/build-logs.js';

const BIG_ID = 'dddddddd-0000-4000-8000-000000000050';
const TARGET_BYTES = 50 * 1024 * 1024;

let home: string;
let bigPath: string;
let exchanges = 0;

/** One exchange: a prompt, a two-line response with a tool call, its ~6 KB result. */
function exchange(i: number): unknown[] {
  const output = `line ${i}\n`.repeat(700);
  return [
    claude.user({ uuid: `u${i}`, parentUuid: i ? `r${i - 1}` : null, timestamp: '2026-11-02T09:00:00.000Z' }, `Step ${i}: run the suite`),
    claude.assistant({ uuid: `a${i}`, parentUuid: `u${i}`, timestamp: '2026-11-02T09:00:01.000Z' }, `msg_${i}`, claude.text('Running.')),
    claude.assistant({ uuid: `b${i}`, parentUuid: `a${i}`, timestamp: '2026-11-02T09:00:02.000Z' }, `msg_${i}`, claude.toolUse(`t${i}`, 'Bash', { command: 'npm test' })),
    claude.toolResult({ uuid: `r${i}`, parentUuid: `b${i}`, timestamp: '2026-11-02T09:00:03.000Z' }, `t${i}`, output, false, { stdout: output, stderr: '' }),
  ];
}

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-large-'));
  bigPath = claudeLogPath(home, '/home/dev/big', BIG_ID);
  await mkdir(dirname(bigPath), { recursive: true });
  const file = await open(bigPath, 'w');
  // A 40 KB snapshot line first, so the first prompt lies beyond the first head read.
  let text = jsonl([{ ...claude.snapshot('s0'), padding: 'p'.repeat(40_000) }, claude.meta({ uuid: 'm0' }, 'Caveat: local commands')]);
  let size = 0;
  while (size < TARGET_BYTES) {
    for (let k = 0; k < 200; k++) text += jsonl(exchange(exchanges++));
    await file.write(text);
    size += Buffer.byteLength(text);
    text = '';
  }
  await file.write(jsonl([claude.user({ uuid: 'last', timestamp: '2026-11-03T12:00:00.000Z' }, 'final prompt')]));
  await file.close();
}, 60_000);

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('a 50 MB session file', () => {
  it('is listed from a head and a tail read only, with its first prompt and latest state', async () => {
    const reader = countingReader();
    const { candidates, stats } = await scanAgentSessions({ env: { HOME: home }, reader });
    const c = candidates[0]!;
    const size = (await open(bigPath, 'r').then(async (h) => [(await h.stat()).size, await h.close()]))[0] as number;
    expect(size).toBeGreaterThan(TARGET_BYTES);
    expect(reader.counts.bytes).toBeLessThan(size / 100);
    expect(reader.counts.bytes).toBeGreaterThan(HEAD_INITIAL_BYTES);
    expect(c.title).toBe('Step 0: run the suite');
    expect(c.updatedAt).toBe('2026-11-03T12:00:00.000Z');
    expect(c.messageCountExact).toBe(false);
    const exact = exchanges * 2 + 1;
    // Estimated from the tail and three 8 KB middle samples: close, not exact.
    expect(Math.abs(c.messageCount - exact) / exact).toBeLessThan(0.2);
    expect(stats.parsed).toBe(1);

    // The full read (handoff) agrees on the fingerprint and counts exactly.
    const s = await readAgentSession('claude', bigPath, { HOME: home });
    expect(s.fingerprint).toBe(c.fingerprint);
    expect(s.messages.filter((m) => m.role === 'user' || m.role === 'assistant')).toHaveLength(exact);
    expect(s.messages[1]!.toolCalls![0]).toMatchObject({ id: 't0', exitCode: 0 });
  });

  it('is continued from the cached offset when it grows', async () => {
    const cacheFile = join(home, 'cache.json');
    await scanAgentSessions({ env: { HOME: home }, cacheFile });
    const added = jsonl([claude.assistant({ uuid: 'z1', parentUuid: 'last', timestamp: '2026-11-03T12:00:05.000Z' }, 'msg_z', claude.text('ok'))]);
    await appendFile(bigPath, added);
    const reader = countingReader();
    const { candidates } = await scanAgentSessions({ env: { HOME: home }, cacheFile, reader });
    expect(reader.counts.bytes).toBeLessThanOrEqual(Buffer.byteLength(added) + 128);
    expect(candidates[0]!.updatedAt).toBe('2026-11-03T12:00:05.000Z');
  });
});

describe('the head read', () => {
  it('grows past a large first line to find the first prompt', async () => {
    const path = await writeLog(claudeLogPath(home, '/home/dev/head', 'eeeeeeee-0000-4000-8000-000000000001'), [
      { ...claude.snapshot('s'), padding: 'q'.repeat(3 * HEAD_INITIAL_BYTES) },
      claude.user({ uuid: 'h1' }, 'found after the snapshot'),
      ...Array.from({ length: 60 }, (_, i) => claude.assistant({ uuid: `h${i + 2}` }, `m${i}`, claude.text('y'.repeat(2000)))),
    ]);
    const { candidates } = await scanAgentSessions({ env: { HOME: home } });
    expect(candidates.find((c) => c.path === path)!.title).toBe('found after the snapshot');
  });
});
