/**
 * Token estimate vs the real counts (docs/context-transfer.md).
 *
 *   npx tsx bench/context/token-estimate.ts [claude-transcript.jsonl …]
 *
 * Claude: for each pair of consecutive API calls of a Claude Code transcript's main chain, the
 * prompt grows by exactly the tokens of what came between them (the assistant's blocks, the tool
 * results, the next prompt): prompt = input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens. The sum of those deltas is compared with Baton's estimate of the same
 * texts. Compaction boundaries reset the chain. Codex: o200k_base (js-tiktoken) over this
 * repository's own prose, code, JSON and git log, against tokensFromUnits(countUnits(…), 'openai'), with
 * characters / 4 as the baseline in the same run.
 */
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { countUnits, tokensFromUnits } from '../../src/core/context/token-estimate.js';
import { printTable } from '../stats.js';

const ROOT = join(import.meta.dirname, '../..');
/** Fewer consecutive-call deltas than this say nothing about the estimate. */
const MIN_DELTAS = 50;
const SHARED_SAMPLE = join(ROOT, '../shared/fixtures/agent-logs/claude-code-session.sample.jsonl');

interface Line {
  type?: string;
  subtype?: string;
  isSidechain?: boolean;
  requestId?: string;
  message?: { content?: unknown; usage?: Record<string, number> };
}

function blockText(block: Record<string, unknown>): string {
  if (block.type === 'text') return String(block.text ?? '');
  if (block.type === 'tool_use') return JSON.stringify({ name: block.name, input: block.input });
  if (block.type === 'tool_result') {
    const c = block.content;
    return typeof c === 'string' ? c : Array.isArray(c) ? c.map((x: { text?: string }) => x.text ?? '').join('\n') : '';
  }
  return '';
}

function claudeDeltas(path: string) {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
  const segments: ({ prompt: number; texts: string[] } | null)[] = [];
  let current: { prompt: number; texts: string[] } | null = null;
  let request = '';
  let messages = 0;
  for (const line of lines) {
    if (line.isSidechain) continue;
    if (line.type === 'system' && line.subtype === 'compact_boundary') {
      segments.push(null);
      current = null;
      request = '';
    } else if (line.type === 'assistant' && line.message?.usage) {
      const u = line.message.usage;
      if (line.requestId !== request) {
        current = { prompt: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0), texts: [] };
        segments.push(current);
        request = line.requestId ?? '';
        messages++;
      }
      for (const b of (line.message.content as Record<string, unknown>[]) ?? []) if (b.type !== 'thinking') current!.texts.push(blockText(b));
    } else if (line.type === 'user' && current) {
      const c = line.message?.content;
      current.texts.push(typeof c === 'string' ? c : Array.isArray(c) ? c.map(blockText).join('\n') : '');
      messages++;
    }
  }
  let reference = 0;
  let units = 0;
  let chars = 0;
  let pairs = 0;
  for (let k = 0; k + 1 < segments.length; k++) {
    const a = segments[k];
    const b = segments[k + 1];
    if (!a || !b || b.prompt < a.prompt) continue;
    pairs++;
    reference += b.prompt - a.prompt;
    for (const t of a.texts) {
      units += countUnits(t);
      chars += t.length;
    }
  }
  return { messages, pairs, reference, estimate: tokensFromUnits(units, 'claude'), chars4: Math.round(chars / 4) };
}

const err = (estimate: number, reference: number) => (reference === 0 ? 'n/a' : `${(((estimate - reference) / reference) * 100).toFixed(1)} %`);

const transcripts = process.argv.slice(2);
const claudeRows = (transcripts.length > 0 ? transcripts : [SHARED_SAMPLE]).map((path) => {
  const r = claudeDeltas(path);
  return { transcript: path.split('/').pop()!.slice(0, 24), messages: r.messages, 'usage deltas': r.pairs, 'usage tokens': r.reference, estimate: r.estimate, error: err(r.estimate, r.reference), 'chars/4': r.chars4, 'chars/4 error': err(r.chars4, r.reference) };
});
console.log('\nClaude Code transcripts: prompt-size deltas from `usage` vs the estimate of the same texts\n');
printTable(claudeRows);
const sum = (k: 'usage tokens' | 'estimate' | 'chars/4') => claudeRows.reduce((s, r) => s + (r[k] as number), 0);
const deltas = claudeRows.reduce((s, r) => s + (r['usage deltas'] as number), 0);
if (deltas < MIN_DELTAS) console.log(`\nOnly ${deltas} usage deltas: too few to measure (the sample's lines are not consecutive). Pass real transcripts, e.g. ~/.claude/projects/*/*.jsonl.`);
console.log(`\nall: usage ${sum('usage tokens')}, estimate ${sum('estimate')} (${err(sum('estimate'), sum('usage tokens'))}), chars/4 ${sum('chars/4')} (${err(sum('chars/4'), sum('usage tokens'))})`);

const o200k = getEncoding('o200k_base');
const files = execSync('git ls-files src docs README.md bench', { cwd: ROOT }).toString().trim().split('\n');
const kinds = new Map<string, string[]>();
for (const f of files) {
  const kind = f.split('.').pop()!;
  kinds.set(kind, [...(kinds.get(kind) ?? []), readFileSync(join(ROOT, f), 'utf8')]);
}
kinds.set('git log --stat', [execSync('git log -n 300 --stat', { cwd: ROOT }).toString()]);
const codexRows = [...kinds].map(([kind, texts]) => {
  const text = texts.join('\n');
  const reference = o200k.encode(text).length;
  const started = performance.now();
  const estimate = tokensFromUnits(countUnits(text), 'openai');
  const ms = performance.now() - started;
  const t2 = performance.now();
  o200k.encode(text);
  const tiktokenMs = performance.now() - t2;
  return { kind, chars: text.length, 'o200k tokens': reference, estimate, error: err(estimate, reference), 'chars/4 error': err(Math.round(text.length / 4), reference), 'estimate ms': ms, 'js-tiktoken ms': tiktokenMs };
});
console.log('\nCodex text: o200k_base (js-tiktoken) vs the estimate, over this repository\n');
printTable(codexRows);
