/**
 * Every answer the renderer receives is validated against the UI contract. What does that cost
 * for `session:get` with 100 to 5,000 messages, against JSON.parse of the same frame (which any
 * transport pays anyway)?
 * Run: npx tsx bench/renderer/validate-response.ts
 */
import { performance } from 'node:perf_hooks';
import { HandlerResult, uiChannels, WsServerMessage } from '../../src/shared/ui-contract.js';
import { z } from 'zod';
import { printTable, summarize, sampleSync } from '../stats.js';

const RUNS = 60;
const SIZES = [100, 1_000, 5_000];

function frame(messages: number): string {
  const session = {
    schemaVersion: 1, id: 's1', parentId: null, createdAt: '2026-11-29T09:00:00Z', updatedAt: '2026-11-29T10:00:00Z', cwd: '/home/dev/api',
    gitRoot: '/home/dev/api', branch: 'main', title: 'Bench', source: { tool: 'claude' }, model: { name: 'm' }, permission: { mode: 'default', rules: [] },
    holder: { who: 'desktop', epoch: 1 }, revision: 1, messageCount: messages, archived: false,
  };
  const list = Array.from({ length: messages }, (_, i) => ({
    seq: i, id: `m${i}`, role: i % 3 === 0 ? 'user' : i % 3 === 1 ? 'assistant' : 'tool', content: 'x'.repeat(400), createdAt: '2026-11-29T09:30:00Z', crc: 'abcd1234',
    ...(i % 3 === 1 ? { toolCalls: [{ id: `c${i}`, name: 'bash', input: { command: 'npm test' }, exitCode: 0, output: 'ok\n'.repeat(20) }] } : {}),
  }));
  return JSON.stringify({ kind: 'response', id: 1, result: { ok: true, value: { session, messages: list, truncated: false } } });
}

const RawResult = HandlerResult(z.unknown());
const response = uiChannels['session:get'].response;

const time = (fn: () => unknown): number[] => sampleSync(fn, RUNS, 5);

const table: Record<string, string | number>[] = [];
for (const size of SIZES) {
  const text = frame(size);
  const baseline = summarize(time(() => JSON.parse(text)));
  // What the renderer does: parse, check the envelope, the result, then the channel's schema.
  const full = summarize(
    time(() => {
      const envelope = WsServerMessage.parse(JSON.parse(text));
      if (envelope.kind !== 'response') throw new Error('unexpected');
      const result = RawResult.parse(envelope.result);
      if (result.ok) response.parse(result.value);
    }),
  );
  const kib = Math.round(text.length / 1024);
  table.push({ messages: size, 'frame KiB': kib, case: 'baseline: JSON.parse', 'median ms': baseline.p50, 'p95 ms': baseline.p95, ratio: 1 });
  table.push({ messages: size, 'frame KiB': kib, case: 'parse + contract validation', 'median ms': full.p50, 'p95 ms': full.p95, ratio: full.p50 / baseline.p50 });
}
printTable(table);
