// What secret redaction costs a handoff: a 150-message session (and one of 10,000) redacted with
// secretlint's recommended rules + Baton's extra rules (one detector pass for the whole session),
// against, in the same run: the hand-written regex list it replaced, the same detector called once
// per string (no batching), and JSON.stringify of the session (the floor of writing it at all).
// Then the cold cost a fresh `baton` process pays once: loading secretlint and its first scan.
//   npx tsx bench/redact/redact.ts [runs]
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { redactStrings, redactValue } from '../../src/core/redact/redact-value.js';
import { printTable, summarize } from '../stats.js';

const RUNS = Number(process.argv[2] ?? 30);

/** A session like a real one: prompts, answers, tool calls with input and trimmed output, a few secrets. */
function session(count: number): unknown[] {
  return Array.from({ length: count }, (_, i) => {
    const secret = i % 50 === 7 ? ` token ghp_${'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d'}` : '';
    if (i % 2 === 0) return { role: 'user', content: `Message ${i}: please fix the failing test in src/x-${i}.ts and run it${secret}` };
    return {
      role: 'assistant',
      content: `Message ${i}: ${'I looked at the code and changed the handler so it checks the token length first. '.repeat(3)}`,
      toolCalls: [
        { id: `toolu_${i}`, name: 'Bash', input: { command: `npx vitest run src/x-${i}.test.ts`, description: 'run the test' }, exitCode: 0, output: `✓ src/x-${i}.test.ts (3 tests) 41ms\n${'stdout line with a path /home/dev/project/src/file.ts:12:5\n'.repeat(12)}` },
      ],
    };
  });
}

/** The hand-written patterns Baton used before secretlint (src/shared/redact.ts, removed): the baseline. */
const OLD_PATTERNS = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/g,
  /\bsk-ant-[A-Za-z0-9_-]{20,}/g,
  /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(Bearer)\s+[A-Za-z0-9._~+/-]{20,}=*/g,
  /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi,
];
function oldRedact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return OLD_PATTERNS.reduce((text, p) => text.replace(p, '[REDACTED]'), value);
  if (depth >= 16 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => oldRedact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, oldRedact(v, depth + 1)]));
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

async function sample(fn: () => unknown, runs: number): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    out.push(performance.now() - started);
  }
  return out;
}

const rows: Record<string, string | number>[] = [];
for (const count of [150, 10_000]) {
  const messages = session(count);
  const texts = strings(messages);
  const runs = count > 1000 ? Math.max(3, Math.floor(RUNS / 10)) : RUNS;
  const cases: [string, () => unknown][] = [
    ['hand-written regexes (before)', () => oldRedact(messages)],
    ['JSON.stringify (floor of writing it)', () => JSON.stringify(messages)],
    ['secretlint + extra rules, one pass (now)', () => redactValue(messages)],
    ...(count <= 1000 ? ([['secretlint, one call per string', async () => { for (const t of texts) await redactStrings([t]); }]] as [string, () => unknown][]) : []),
  ];
  let before = Number.NaN;
  for (const [name, fn] of cases) {
    const s = summarize(await sample(fn, runs));
    if (name.startsWith('hand-written')) before = s.p50;
    rows.push({ messages: count, case: name, n: s.n, 'p50 ms': s.p50, 'p95 ms': s.p95, 'µs / message (p50)': (s.p50 * 1000) / count, 'x before': s.p50 / before });
  }
}
printTable(rows);

/** A fresh process: load secretlint and scan once, against `node -e ""`. */
function processMs(script: string): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: resolve(import.meta.dirname, '..', '..') }, (error) => (error ? fail(error) : done(performance.now() - started))),
  );
}
const cold = `import { lintSource } from '@secretlint/core'; import { rules } from '@secretlint/secretlint-rule-preset-recommend';
await lintSource({ source: { content: 'hello', filePath: 'x.txt', contentType: 'text' }, options: { config: { rules: rules.map((rule) => ({ id: rule.meta.id, rule })) }, noPhysicFilePath: true } });`;
const floor: number[] = [];
// (An empty -e script makes node wait on stdin: the floor runs `0`.)
const load: number[] = [];
for (let i = 0; i < Math.max(5, Math.floor(RUNS / 3)); i++) {
  floor.push(await processMs('0'));
  load.push(await processMs(cold));
}
const f = summarize(floor);
const l = summarize(load);
printTable([
  { case: 'node -e 0 (floor)', n: f.n, 'p50 ms': f.p50, 'p95 ms': f.p95, 'added p50 ms': 0 },
  { case: 'load secretlint + first scan', n: l.n, 'p50 ms': l.p50, 'p95 ms': l.p95, 'added p50 ms': l.p50 - f.p50 },
]);
