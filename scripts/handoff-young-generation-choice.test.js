// bin/load-cli.js holds a handoff's young generation small (issue 20's memory bound) unless the
// handoff's input is one --messages file it can see is small: on a 150-message handoff the bound
// cost 12–16 ms of CPU (bench/README.md, "Issue 20, seventh sitting"). Every input whose size is
// not known before the bundle runs keeps the bound. src/cli/handoff-young-generation.test.ts holds
// the bound itself on a file above the threshold. An import (--from) grows its young generation to
// a cap instead: its two parses of every line and its 1 MiB landing batches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const { handoffImports, handoffMayBeBig, SMALL_HANDOFF_INPUT_BYTES } = createRequire(import.meta.url)('../bin/load-cli.js');
const dir = mkdtempSync(join(tmpdir(), 'baton-young-choice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const argv = (...args) => ['node', 'baton', 'handoff', ...args];
const sizes = { 'small.jsonl': 1000, 'edge.jsonl': SMALL_HANDOFF_INPUT_BYTES, 'under.jsonl': SMALL_HANDOFF_INPUT_BYTES - 1, 'big.jsonl': 300 * 1024 * 1024 };
const sizeOf = (file) => {
  if (!(file in sizes)) throw Object.assign(new Error(`ENOENT ${file}`), { code: 'ENOENT' });
  return sizes[file];
};

describe('whether a handoff holds its young generation small', () => {
  it.each([
    // [argv after `handoff`, bound held]
    [['--messages', 'small.jsonl'], false],
    [['--messages=small.jsonl'], false],
    [['--cwd', '/w', '--title', 't', '--messages', 'under.jsonl', '--no-launch', '--json'], false],
    [['--messages', 'edge.jsonl'], true],
    [['--messages', 'big.jsonl'], true],
    [['--messages', 'missing.jsonl'], true],
    [[], true], // stdin: its size is not known
    [['--messages', '-'], true],
    [['--messages'], true],
    [['--messages', '--json'], true],
    [['--messages', 'small.jsonl', '--messages', 'big.jsonl'], true],
    [['--messages', 'small.jsonl', '--messages=small.jsonl'], true],
    [['--from', 'claude', '--latest'], true],
    [['--from=codex', '--session', 'abc'], true],
    [['--session', 's-1', '--messages', 'small.jsonl'], true],
    [['--session=s-1'], true],
  ])('%j → held %s', (args, held) => {
    expect(handoffMayBeBig(argv(...args), sizeOf)).toBe(held);
  });

  it.each([
    // [argv after `handoff`, an import: its young generation grows to the launcher's cap]
    [['--from', 'claude', '--latest'], true],
    [['--from=codex', '--session', 'abc'], true],
    [['--cwd', '/w', '--from', 'claude', '--session', '/t.jsonl', '--json'], true],
    [['--session', 's-1'], false],
    [['--messages', 'big.jsonl'], false],
    [[], false],
    [['--fromage'], false],
  ])('%j → import %s', (args, imports) => {
    expect(handoffImports(argv(...args))).toBe(imports);
  });

  it('reads the real file size when none is injected', () => {
    const small = join(dir, 'small.jsonl');
    const big = join(dir, 'big.jsonl');
    writeFileSync(small, '{"role":"user","content":"hi"}\n');
    writeFileSync(big, Buffer.alloc(SMALL_HANDOFF_INPUT_BYTES, 0x20));
    expect(handoffMayBeBig(argv('--messages', small))).toBe(false);
    expect(handoffMayBeBig(argv('--messages', big))).toBe(true);
    expect(handoffMayBeBig(argv('--messages', join(dir, 'absent.jsonl')))).toBe(true);
  });
});
