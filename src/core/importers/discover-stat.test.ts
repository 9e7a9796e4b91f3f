import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSessionFiles } from './discover.js';
import { discoverAndStat } from './discover-stat.js';
import { locateAgentDirs } from './locate.js';
import { nodeImportReader, statAll, type ImportReader } from './reader.js';
import { scanCandidateIndexFull } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

/** A real node:fs reader that records its listings in order; folders matching `slowDir` are listed late. */
function recordingReader(calls: string[], slowDir: (dir: string) => boolean): ImportReader {
  const base = nodeImportReader;
  return {
    ...base,
    async readdir(dir) {
      if (slowDir(dir)) await new Promise((resolve) => setTimeout(resolve, 30));
      calls.push(dir);
      return base.readdir(dir);
    },
  };
}

describe('discoverAndStat', () => {
  let root: string;
  let home: string;
  let outside: string;
  const COUNT = 12;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'baton-discover-stat-'));
    home = join(root, 'home');
    outside = join(root, 'outside');
    for (let i = 0; i < COUNT; i++) {
      const id = `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;
      if (i % 2 === 0) {
        await writeLog(claudeLogPath(home, `/home/dev/p${i % 3}`, id), [
          claude.user({ uuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `prompt ${i}`),
          claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd: '/home/dev/a', sessionId: id }, `${id}-m`, claude.text('ok')),
        ]);
      } else {
        await writeLog(codexLogPath(join(home, '.codex'), id, `2026/11/0${1 + (i % 3)}`), [codex.meta(id), codex.message('user', `prompt ${i}`), codex.userEvent(`prompt ${i}`)]);
      }
    }
    // A skip reason in each tool, one of them in both: their order and counts are the index meta's.
    await writeLog(join(home, '.claude', 'projects', '-home-dev-p0', 'agent-1.jsonl'), [claude.user({ uuid: 'x', cwd: '/home/dev/a' }, 'sub')]);
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'elsewhere.jsonl'), '{}\n');
    await symlink(join(outside, 'elsewhere.jsonl'), join(home, '.claude', 'projects', '-home-dev-p0', 'linked.jsonl'));
    await symlink(join(outside, 'elsewhere.jsonl'), join(home, '.codex', 'sessions', '2026', '11', '01', 'rollout-2026-11-01T10-00-00-linked.jsonl'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('gives what discovery and then the stats gave: files, folders, skip reasons in order, each stat in its place', async () => {
    const dirs = locateAgentDirs({ HOME: home });
    const found = await discoverSessionFiles(nodeImportReader, dirs);
    const stats = await statAll(nodeImportReader, found.files.map((f) => f.path));
    let seen: unknown = null;
    const both = await discoverAndStat(nodeImportReader, dirs, undefined, (f) => (seen = f));
    expect(both.found).toEqual(found);
    expect(Object.keys(both.found.skipped)).toEqual(Object.keys(found.skipped));
    expect(found.skipped).toEqual({ 'claude sub-agent log': 1, 'symbolic link out of the tool folder': 2 });
    expect(both.stats).toEqual(stats);
    expect(seen).toBe(both.found);
    for (const only of ['claude', 'codex'] as const) {
      const one = await discoverAndStat(nodeImportReader, dirs, only, () => undefined);
      const alone = await discoverSessionFiles(nodeImportReader, dirs, only);
      expect(one.found).toEqual(alone);
      expect(one.stats).toEqual(await statAll(nodeImportReader, alone.files.map((f) => f.path)));
    }
  });

  it("lists Codex's folders while Claude's are still being listed, in a full scan", async () => {
    const calls: string[] = [];
    const projects = join(home, '.claude', 'projects');
    const projectDir = (dir: string): boolean => dir.startsWith(projects + sep);
    const result = await scanCandidateIndexFull({ env: { HOME: home }, cacheFile: join(root, 'data', 'importers-cache.json'), reader: recordingReader(calls, projectDir) });
    expect(result.scan.entries).toHaveLength(COUNT);
    const lastClaudeListing = calls.findLastIndex(projectDir);
    const firstCodexListing = calls.findIndex((dir) => dir.startsWith(join(home, '.codex')));
    expect(lastClaudeListing).toBeGreaterThanOrEqual(0);
    expect(firstCodexListing).toBeGreaterThanOrEqual(0);
    // Before, one tool after the other: every Claude folder was listed before the first Codex one.
    expect(firstCodexListing).toBeLessThan(lastClaudeListing);
  });
});
