import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MessageInput } from '../../shared/message.js';
import { readAgentSession } from '../importers/read-session.js';
import { transcriptCorpus, type Transcript } from '../importers/test-fixtures/transcript-corpus.js';
import { openStore } from '../store/index.js';
import { arraySource, scanMessages, type InputScan } from './message-source.js';
import { landAndReadBack } from './send.js';
import { planTranscript, type TranscriptPlan } from './transcript-source.js';

/**
 * The streamed conversion against the whole-array one, message by message, and the plan's scan
 * against the scan of the finished messages; how many messages the stream holds; a file changed
 * between the two reads.
 */
let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-transcript-source-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function write(t: Pick<Transcript, 'name' | 'source' | 'text'>): Promise<string> {
  const path =
    t.source === 'claude'
      ? join(home, '.claude', 'projects', '-p', `${t.name}.jsonl`)
      : join(home, '.codex', 'sessions', '2026', '11', '30', `rollout-2026-11-30T10-00-00-${t.name}.jsonl`);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, t.text);
  return path;
}

async function streamed(plan: TranscriptPlan): Promise<MessageInput[]> {
  const out: MessageInput[] = [];
  for await (const part of plan.source.parts()) out.push(...part);
  await plan.source.checkUnchanged?.(plan.scan);
  return out;
}

function comparable(scan: InputScan, ids: string[]) {
  return { ...scan, keyedSecrets: [...scan.keyedSecrets].sort(), mayRepeat: ids.map((id) => scan.mayRepeat(id)) };
}

/** A value nested `depth` objects deep. */
function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const claudeLine = (type: string, uuid: string, message: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type, uuid, sessionId: 'sess-1', cwd: '/nonexistent/p', timestamp: '2026-11-30T10:00:00.000Z', message, ...extra });
const toolUse = (n: number, input: unknown = { command: `ls ${n}` }) => claudeLine('assistant', `a${n}`, { id: `msg_${n}`, model: 'claude-opus-4-6', content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input }] });
const toolResult = (n: number, uuid: string) => claudeLine('user', uuid, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: `out ${n}` }] });

describe('planTranscript and its stream', () => {
  it('streams 300 generated transcripts (plus deep inputs) into exactly the whole-array messages, facts and scan', { timeout: 300_000 }, async () => {
    const cases: Pick<Transcript, 'name' | 'source' | 'text'>[] = transcriptCorpus(300);
    // Inputs nested past MESSAGE_MAX_DEPTH, in a first response and in one continued far later.
    cases.push({ name: 'deep-claude', source: 'claude', text: [claudeLine('user', 'u0', { role: 'user', content: 'go' }), toolUse(1), toolUse(2, nested(300)), toolResult(1, 'u3'), claudeLine('assistant', 'a4', { id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Bash', input: nested(400) }] })].join('\n') });
    let compared = 0;
    let deep = 0;
    for (const t of cases) {
      const path = await write(t);
      let whole;
      try {
        whole = await readAgentSession(t.source, path, { HOME: home });
      } catch (error) {
        await expect(planTranscript(t.source, path, { HOME: home })).rejects.toThrow((error as Error).message);
        continue;
      }
      const plan = await planTranscript(t.source, path, { HOME: home });
      const { messages, ...facts } = whole;
      // The plan does not count dangling parents (it would remember every uuid of the file).
      expect(plan.facts).toEqual({ ...facts, stats: { ...facts.stats, danglingParents: 0 } });
      expect(await streamed(plan)).toEqual(messages);
      const ids = messages.flatMap((m) => (m.id ? [m.id] : []));
      expect(comparable(plan.scan, ids)).toEqual(comparable(await scanMessages(arraySource(messages), { checkDepth: true }), ids));
      if (plan.scan.tooDeep >= 0) deep++;
      compared++;
    }
    expect(compared).toBeGreaterThan(280);
    expect(deep).toBeGreaterThan(0);
  });

  it('holds one message at a time when each result follows its call, and none for results that never come', async () => {
    const lines = [claudeLine('user', 'u0', { role: 'user', content: 'go' })];
    for (let n = 1; n <= 3000; n++) {
      lines.push(toolUse(n));
      // Every third call never gets its result.
      if (n % 3 !== 0) lines.push(toolResult(n, `r${n}`));
    }
    const plan = await planTranscript('claude', await write({ name: 'near', source: 'claude', text: `${lines.join('\n')}\n` }), { HOME: home });
    const messages = await streamed(plan);
    expect(messages).toHaveLength(3001);
    expect(messages[1]!.toolCalls![0]!.output).toBe('out 1');
    expect(messages[3]!.toolCalls![0]!.output).toBeUndefined();
    expect(plan.heldPeak).toBe(1);
  });

  it('holds the messages between a call and a result that arrives far later, then lets them all go in order', async () => {
    const lines = [claudeLine('user', 'u0', { role: 'user', content: 'go' }), toolUse(0)];
    for (let n = 1; n <= 500; n++) lines.push(claudeLine('user', `p${n}`, { role: 'user', content: `prompt ${n}` }));
    lines.push(toolResult(0, 'late'));
    const plan = await planTranscript('claude', await write({ name: 'far', source: 'claude', text: `${lines.join('\n')}\n` }), { HOME: home });
    const messages = await streamed(plan);
    expect(messages.map((m) => m.id)).toEqual(['u0', 'a0', ...Array.from({ length: 500 }, (_, i) => `p${i + 1}`)]);
    expect(messages[1]!.toolCalls![0]!.output).toBe('out 0');
    expect(plan.heldPeak).toBe(501);
  });

  it('parses on the second read only the lines that can change the conversion', async () => {
    const lines: string[] = [];
    for (let n = 0; n < 50; n++) {
      lines.push(JSON.stringify({ type: 'progress', uuid: `g${n}`, sessionId: 'sess-1', data: { n } }));
      lines.push(JSON.stringify({ type: 'file-history-snapshot', messageId: `m${n}`, snapshot: {} }));
      lines.push(claudeLine('user', `s${n}`, { role: 'user', content: 'side' }, { isSidechain: true }));
      lines.push(claudeLine('user', `m${n}`, { role: 'user', content: '<command-name>/clear</command-name>' }, { isMeta: true }));
      lines.push(claudeLine('user', `u${n}`, { role: 'user', content: `prompt ${n}` }));
    }
    const plan = await planTranscript('claude', await write({ name: 'sparse', source: 'claude', text: `${lines.join('\n')}\n` }), { HOME: home });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const messages = await streamed(plan);
      expect(messages.map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, n) => `u${n}`));
      expect(parse).toHaveBeenCalledTimes(50);
    } finally {
      parse.mockRestore();
    }
  });

  it('refuses a transcript that changed between the two reads, with nothing saved', async () => {
    const text = `${[claudeLine('user', 'u0', { role: 'user', content: 'go' }), toolUse(1), toolResult(1, 'r1'), toolUse(2), toolResult(2, 'r2')].join('\n')}\n`;
    for (const change of ['appended', 'same size, same mtime, a result now answers another call'] as const) {
      const path = await write({ name: `changed-${change.length}`, source: 'claude', text });
      const plan = await planTranscript('claude', path, { HOME: home });
      if (change === 'appended') await writeFile(path, `${text}${claudeLine('user', 'u9', { role: 'user', content: 'more' })}\n`);
      else {
        const before = await stat(path);
        await writeFile(path, text.replace('"tool_use_id":"toolu_2"', '"tool_use_id":"toolu_7"'));
        await utimes(path, before.atime, before.mtime);
      }
      const store = await openStore(join(home, `data-${change.length}`));
      try {
        await expect(landAndReadBack(store, { cwd: '/nonexistent/p', title: 't', messages: plan.source, scan: plan.scan, source: { tool: 'claude', externalId: 'sess-1', path } })).rejects.toThrow(/changed while Baton was reading it/);
        expect(await readdir(join(home, `data-${change.length}`, 'sessions')).catch(() => [])).toEqual([]);
      } finally {
        await store.close();
      }
      expect((await readFile(path, 'utf8')).length).toBeGreaterThan(0);
    }
  });
});
