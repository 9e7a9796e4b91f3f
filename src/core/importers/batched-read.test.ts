import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCAN_READ_BATCH, WHOLE_READ_MAX_BYTES } from './limits.js';
import { countingReader, nodeImportReader, type ImportReader } from './reader.js';
import { scanAgentSessions } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, jsonl } from './test-fixtures/build-logs.js';

/**
 * The cold scan reads small new files through reader.readPrefixes (synchronous batches) instead
 * of open()/read()/close(). Both paths must give the same candidates and counts, on real files,
 * for every shape a log takes: CRLF, torn or damaged lines, "type":"user" inside strings, long
 * lines, sizes on both sides of WHOLE_READ_MAX_BYTES, empty files.
 */

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-batched-'));
  env = { HOME: home };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The node reader as it was before readPrefixes: every file through open(). */
const openOnly: ImportReader = { ...nodeImportReader, readPrefixes: undefined };

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function uuid(n: number, tag: string): string {
  return `${tag}${n.toString(16).padStart(7, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** One Claude or Codex log, shaped by the random source, written as bytes (CRLF and damage included). */
function generate(n: number, next: () => number): { source: 'claude' | 'codex'; path: string; text: string } {
  const source = next() < 0.5 ? 'claude' : 'codex';
  const id = uuid(n, source === 'claude' ? 'a' : 'c');
  const lines: unknown[] = [];
  const count = Math.floor(next() * 40);
  // Sometimes a long line: a file that crosses WHOLE_READ_MAX_BYTES, or a line of tool output alone near it.
  const longText = next() < 0.15 ? 'x'.repeat(Math.floor(next() * WHOLE_READ_MAX_BYTES * 1.2)) : '';
  if (source === 'claude') {
    const c = { cwd: `/home/dev/p${n % 7}`, sessionId: id };
    let parent: string | null = null;
    for (let k = 0; k < count; k++) {
      const u = `${id}-${k}`;
      const r = next();
      const common = { ...c, uuid: u, parentUuid: parent };
      if (r < 0.3) lines.push(claude.user(common, k === 3 && longText ? longText : `prompt ${k} with "type":"user" and {"type":"assistant"} inside`));
      else if (r < 0.6) lines.push(claude.assistant(common, `${id}-m${Math.floor(k / 2)}`, claude.text(`answer "type":"user" ${k}`)));
      else if (r < 0.7) lines.push(claude.toolResult(common, `t${k}`, longText && k === 5 ? longText : 'ok', false, {}));
      else if (r < 0.75) lines.push(claude.compactBoundary(common, parent ?? 'none'));
      else if (r < 0.8) lines.push(claude.snapshot(`${id}-m${k}`));
      else if (r < 0.85) lines.push(claude.meta(common, '<command-name>/clear</command-name>'));
      else if (r < 0.9) lines.push('{"type":"user","message":{"role":"user","content":"torn mid-file');
      else lines.push({ type: 'mystery', text: '"type":"user"' });
      parent = u;
    }
  } else {
    lines.push(codex.meta(id, `/home/dev/p${n % 7}`));
    lines.push(codex.turnContext());
    for (let k = 0; k < count; k++) {
      const r = next();
      if (r < 0.3) lines.push(codex.message('user', k === 2 && longText ? longText : `codex prompt ${k} "role":"user"`));
      else if (r < 0.55) lines.push(codex.message('assistant', `reply ${k}`));
      else if (r < 0.7) lines.push(codex.call(`c${k}`, 'shell', { cmd: ['echo', '"type":"message"'] }));
      else if (r < 0.8) lines.push(codex.output(`c${k}`, 'done'));
      else if (r < 0.85) lines.push(codex.compacted('summary'));
      else if (r < 0.9) lines.push(codex.tokenCount());
      else lines.push('{"timestamp":"2026-11-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"user"');
    }
  }
  // A torn last line (a write in progress) in some files: jsonl() leaves a final string unterminated.
  if (next() < 0.2) lines.push('{"type":"assistant","message":{"id":"torn');
  let text = jsonl(lines);
  if (next() < 0.25) text = text.replace(/\n/g, '\r\n');
  if (next() < 0.05) text = '';
  const path = source === 'claude' ? claudeLogPath(home, `/home/dev/p${n % 7}`, id) : codexLogPath(join(home, '.codex'), id, `2026/11/${String((n % 28) + 1).padStart(2, '0')}`);
  return { source, path, text };
}

async function writeCorpus(files: number, seed: number): Promise<number> {
  const next = rng(seed);
  let small = 0;
  for (let n = 0; n < files; n++) {
    const { path, text } = generate(n, next);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    const bytes = Buffer.byteLength(text);
    if (bytes > 0 && bytes <= WHOLE_READ_MAX_BYTES) small += 1;
  }
  return small;
}

function comparable(result: Awaited<ReturnType<typeof scanAgentSessions>>) {
  const { ms: _ms, ...stats } = result.stats;
  return { candidates: [...result.candidates].sort((a, b) => (a.path < b.path ? -1 : 1)), stats };
}

describe('cold scan: batched whole reads of small files', () => {
  it('gives the same candidates and counts as open() for 400 generated logs (CRLF, torn, damaged, long lines, empty)', async () => {
    const small = await writeCorpus(400, 15);
    expect(small).toBeGreaterThan(SCAN_READ_BATCH); // more than one batch
    const counting = countingReader(nodeImportReader);
    const batched = await scanAgentSessions({ env, reader: counting });
    const opened = await scanAgentSessions({ env, reader: openOnly });
    expect(comparable(batched)).toEqual(comparable(opened));
    expect(batched.stats.files).toBe(400);
    expect(batched.stats.tornLines).toBeGreaterThan(0);
    // Every small file was read once, whole; only the larger ones were opened as handles.
    expect(counting.counts.opens).toBe(batched.stats.parsed);
    expect(counting.counts.bytes).toBe(batched.stats.bytesRead);
  });

  it('falls back to open() for a file whose batched read failed or came back short (truncated after the stat)', async () => {
    await writeCorpus(40, 7);
    let failed = 0;
    let short = 0;
    const flaky: ImportReader = {
      ...nodeImportReader,
      async readPrefixes(items) {
        const out = await nodeImportReader.readPrefixes!(items);
        return out.map((r, i) => {
          if (r instanceof Error) return r;
          if (i % 3 === 0) {
            failed += 1;
            return Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
          }
          if (i % 3 === 1 && r.length > 1) {
            short += 1;
            return r.subarray(0, r.length - 1);
          }
          return r;
        });
      },
    };
    const viaFallback = await scanAgentSessions({ env, reader: flaky });
    const opened = await scanAgentSessions({ env, reader: openOnly });
    expect(failed).toBeGreaterThan(0);
    expect(short).toBeGreaterThan(0);
    // The same result; only bytesRead differs (the short reads were counted, then read again).
    const { stats: a, candidates } = comparable(viaFallback);
    const { stats: b, candidates: expected } = comparable(opened);
    expect(candidates).toEqual(expected);
    expect({ ...a, bytesRead: 0 }).toEqual({ ...b, bytesRead: 0 });
    expect(a.bytesRead).toBeGreaterThan(b.bytesRead);
  });
});
