import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FoundFile } from './discover.js';
import { statForFirstRows } from './first-rows.js';
import { nodeImportReader } from './reader.js';

describe('statForFirstRows', () => {
  let root: string;
  let files: FoundFile[];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-first-rows-'));
    const codex = (rel: string): FoundFile => ({ source: 'codex', path: join(root, 'codex', rel), compressed: rel.endsWith('.zst') });
    const claude = (id: string): FoundFile => ({ source: 'claude', path: join(root, 'claude', `${id}.jsonl`), compressed: false });
    // Discovery order is the folders' (no time order); one rollout sits flat in sessions/, named like the others.
    files = [
      codex('2026/11/02/rollout-2026-11-02T10-00-00-b.jsonl'),
      claude('c1'),
      codex('rollout-2026-11-30T08-00-00-flat.jsonl'),
      codex('2026/12/01/rollout-2026-12-01T09-00-00-a.jsonl.zst'),
      claude('c2'),
      codex('2026/11/02/rollout-2026-11-02T11-00-00-c.jsonl'),
      codex('2025/01/15/rollout-2025-01-15T10-00-00-d.jsonl'),
      claude('gone'),
    ];
    for (const f of files.filter((f) => !f.path.endsWith('gone.jsonl'))) {
      await mkdir(dirname(f.path), { recursive: true });
      await writeFile(f.path, 'x');
    }
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each([
    // count, the Codex files stat'ed first (indexes into files, newest name first)
    [2, [3, 2]],
    [3, [3, 2, 5]],
    [0, []],
    [10, [3, 2, 5, 0, 6]],
  ])('with count %i: every Claude file and the newest-named Codex rollouts first, the rest after', async (count, codexFirst) => {
    const claudeIndexes = [1, 4, 7];
    const step = await statForFirstRows(nodeImportReader, files, count);
    expect(step.stated).toEqual([...claudeIndexes, ...codexFirst]);
    const statted = (i: number) => step.stats[i] !== undefined;
    expect(files.map((_, i) => statted(i))).toEqual(files.map((_, i) => step.stated.includes(i)));
    // A vanished file is stat'ed too: its error is the scan's to report.
    expect(step.stats[7]).toBeInstanceOf(Error);
    await step.rest();
    expect(files.every((_, i) => statted(i))).toBe(true);
    expect(step.stats[0]).toMatchObject({ isFile: true, size: 1 });
  });
});
