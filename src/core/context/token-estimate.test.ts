import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../shared/message.js';
import { contextFromState, tokenizerFamilyOf } from './context-transfer.js';
import { emptyState, extend } from './extract.js';
import { countUnits, tokensFromUnits } from './token-estimate.js';

/** The reference tokenizer for Codex text (devDependency, used only here and in bench/). */
const o200k = getEncoding('o200k_base');
const ROOT = join(import.meta.dirname, '../../..');
const TOLERANCE = 0.15;

/** Real text of the kinds a coding session carries, from this repository: prose, code, JSON, shell output. */
function corpus() {
  const prose = ['README.md', 'docs/importer-claude-code.md', 'docs/importer-codex.md']
    .flatMap((f) => readFileSync(join(ROOT, f), 'utf8').split(/\n\s*\n/))
    .filter((p) => p.trim().length > 40);
  const dir = join(ROOT, 'src/core/handoff');
  const code = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => ({ path: `src/core/handoff/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
  const json = readFileSync(join(ROOT, 'package.json'), 'utf8');
  return { prose, code, json };
}

/** ≥ 200 messages shaped like a Codex rollout: prompts, answers, exec_command calls and their output. */
function codexShapedRecords(): MessageRecord[] {
  const { prose, code, json } = corpus();
  const records: MessageRecord[] = [];
  const push = (r: Omit<MessageRecord, 'seq' | 'id' | 'crc' | 'createdAt'>) => records.push({ ...r, seq: records.length, id: `m${records.length}`, crc: '0', createdAt: '2026-11-30T00:00:00Z' } as MessageRecord);
  for (let i = 0; records.length < 240; i++) {
    push({ role: 'user', content: prose[i % prose.length]! });
    const file = code[i % code.length]!;
    const slice = file.text.split('\n').slice(0, 40 + (i % 5) * 30).join('\n');
    push({
      role: 'assistant',
      content: prose[(i * 7 + 3) % prose.length]!,
      toolCalls: [{ id: `call_${i}`, name: 'exec_command', input: { cmd: `sed -n '1,${40 + (i % 5) * 30}p' ${file.path}`, workdir: '/home/dev/baton', yield_time_ms: 10_000 }, exitCode: 0, output: i % 9 === 0 ? json : slice }],
    });
  }
  return records;
}

function referenceTokens(records: readonly MessageRecord[]): number {
  let total = 0;
  for (const r of records) {
    total += o200k.encode(r.content).length;
    for (const c of r.toolCalls ?? []) total += o200k.encode(c.name).length + o200k.encode(JSON.stringify(c.input)).length + o200k.encode(c.output ?? '').length;
  }
  return total;
}

describe('token estimate against o200k_base (js-tiktoken) on Codex-shaped text', () => {
  it('is within 15 % over 240 real-shaped messages, through the same path the manifest uses', () => {
    const records = codexShapedRecords();
    expect(records.length).toBeGreaterThanOrEqual(200);
    const estimate = contextFromState(extend(emptyState(), records), records, 'openai').token_estimate;
    const reference = referenceTokens(records);
    expect(Math.abs(estimate - reference) / reference).toBeLessThan(TOLERANCE);
  });

  it('is within 15 % on each kind of text alone: prose, TypeScript, JSON', () => {
    const { prose, code, json } = corpus();
    for (const text of [prose.join('\n\n'), code.map((c) => c.text).join('\n'), json]) {
      const reference = o200k.encode(text).length;
      expect(Math.abs(tokensFromUnits(countUnits(text), 'openai') - reference) / reference).toBeLessThan(TOLERANCE);
    }
  });

  it('is within 15 % per message for most messages, not only on the total', () => {
    const records = codexShapedRecords().filter((r) => r.content.length > 200);
    const close = records.filter((r) => Math.abs(tokensFromUnits(countUnits(r.content), 'openai') - o200k.encode(r.content).length) / o200k.encode(r.content).length < TOLERANCE);
    expect(close.length / records.length).toBeGreaterThan(0.8);
  });
});

describe('countUnits', () => {
  it('counts runs, not characters', () => {
    expect(countUnits('')).toBe(0);
    expect(countUnits('hello')).toBe(1);
    expect(countUnits('hello world')).toBe(2);
    expect(countUnits('internationalization')).toBe(4);
    expect(countUnits('1234567')).toBe(3);
    expect(countUnits('a\n    b')).toBe(3);
    expect(countUnits('();')).toBe(1);
    expect(countUnits('日本語')).toBe(3);
    expect(countUnits('🙂')).toBe(2);
  });

  it('never counts fewer units for longer text (monotonic in appended runs)', () => {
    let text = '';
    let last = 0;
    for (let i = 0; i < 200; i++) {
      text += i % 3 === 0 ? ' word' : i % 3 === 1 ? '();' : '\n  42';
      const now = countUnits(text);
      expect(now).toBeGreaterThanOrEqual(last);
      last = now;
    }
  });
});

describe('tokenizerFamilyOf', () => {
  it('o200k for Codex and OpenAI models, Claude otherwise', () => {
    const cases: [Parameters<typeof tokenizerFamilyOf>[0], string][] = [
      [{ source: { tool: 'codex' }, model: null }, 'openai'],
      [{ source: { tool: 'codex' }, model: { name: 'gpt-5.3-codex' } }, 'openai'],
      [{ source: { tool: 'baton' }, model: { name: 'gpt-4.1' } }, 'openai'],
      [{ source: { tool: 'other' }, model: { name: 'o3' } }, 'openai'],
      [{ source: { tool: 'claude' }, model: { name: 'claude-opus-4-6' } }, 'claude'],
      [{ source: { tool: 'baton' }, model: null }, 'claude'],
    ];
    for (const [session, family] of cases) expect(tokenizerFamilyOf(session)).toBe(family);
  });
});
