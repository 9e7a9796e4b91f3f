import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from '../../core/importers/test-fixtures/build-logs.js';

/** `baton list` in real processes on a fake HOME: streamed --json, --limit, --cwd, --source, and bad input. */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let root: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function baton(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: join(import.meta.dirname, '..', '..', '..'), env: { ...process.env, HOME: join(root, 'home'), BATON_HOME: join(root, 'data'), XDG_RUNTIME_DIR: join(root, 'run'), ...extraEnv }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Listing {
  groups: Array<{ cwd: string; newestAt: number; sessions: Array<{ id: string; source: string; updatedAt: string }> }>;
  total: number;
  shown: number;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-list-'));
  const home = join(root, 'home');
  for (let i = 0; i < 30; i++) {
    const id = `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const cwd = `/home/dev/${i % 3 === 0 ? 'api' : 'web'}`;
    const ts = new Date(Date.UTC(2026, 10, 1, 10, i)).toISOString();
    await writeLog(claudeLogPath(home, cwd, id), [
      claude.user({ uuid: `${id}-u`, cwd, sessionId: id, timestamp: ts }, `prompt ${i}`),
      claude.assistant({ uuid: `${id}-a`, parentUuid: `${id}-u`, cwd, sessionId: id, timestamp: ts }, `${id}-m`, claude.text('ok')),
    ]);
  }
  const cx = '019b0000-0000-7000-8000-0000000000aa';
  await writeLog(codexLogPath(join(home, '.codex'), cx), [codex.meta(cx), codex.turnContext(), codex.message('user', 'codex prompt'), codex.message('assistant', 'hi')]);
}, 60_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('baton list', () => {
  it('--json lists every session, newest group first and newest first inside, with counts; warm runs print the same', async () => {
    const cold = await baton(['list', '--json']);
    expect(cold.code).toBe(0);
    const doc = JSON.parse(cold.stdout) as Listing;
    expect(doc.total).toBe(31);
    expect(doc.shown).toBe(31);
    for (let g = 1; g < doc.groups.length; g++) expect(doc.groups[g - 1]!.newestAt).toBeGreaterThanOrEqual(doc.groups[g]!.newestAt);
    for (const group of doc.groups) {
      const times = group.sessions.map((s) => Date.parse(s.updatedAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    const warm = await baton(['list', '--json']);
    const strip = (text: string) => ({ ...(JSON.parse(text) as object), agentScan: null });
    expect(strip(warm.stdout)).toEqual(strip(cold.stdout));
  }, 60_000);

  it('--limit, --cwd and --source narrow the listing; total counts what matched', async () => {
    const limited = JSON.parse((await baton(['list', '--json', '--limit', '4'])).stdout) as Listing;
    expect(limited).toMatchObject({ total: 31, shown: 4 });
    expect(limited.groups.flatMap((g) => g.sessions)).toHaveLength(4);
    const api = JSON.parse((await baton(['list', '--json', '--cwd', '/home/dev/api'])).stdout) as Listing;
    expect(api.groups.map((g) => g.cwd)).toEqual(['/home/dev/api']);
    const all = JSON.parse((await baton(['list', '--json'])).stdout) as Listing;
    expect(api.total).toBe(all.groups.find((g) => g.cwd === '/home/dev/api')!.sessions.length);
    expect(api.total).toBe(11); // the ten Claude sessions there and the Codex fixture's (its cwd is /home/dev/api)
    const codexOnly = JSON.parse((await baton(['list', '--json', '--source', 'codex'])).stdout) as Listing;
    expect(codexOnly.groups.flatMap((g) => g.sessions.map((s) => s.source))).toEqual(['codex']);
    const human = await baton(['list', '--limit', '2']);
    expect(human.stdout).toContain('… 29 more (31 in all)');
  }, 60_000);

  it('refuses a --limit that is not a whole number, and an unknown --source', async () => {
    const bad = await baton(['list', '--json', '--limit', 'ten']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
    const source = await baton(['list', '--source', 'vim']);
    expect(source.code).not.toBe(0);
    expect(source.stderr).toMatch(/vim/);
  }, 60_000);

  it('answers from the candidate index when it can be trusted: the same bytes as the full scan for --json, --limit, --cwd, --source and people\'s output', async () => {
    // Folders older than the racy window, then one listing: the index is written and confirmed.
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) if (e.isDirectory()) await walk(join(dir, e.name));
      await utimes(dir, Date.now() / 1000 - 3600, Date.now() / 1000 - 3600);
    };
    await walk(join(root, 'home', '.claude'));
    await walk(join(root, 'home', '.codex'));
    expect((await baton(['list', '--json', '--no-host'])).code).toBe(0);
    const trace = join(root, 'trace.jsonl');
    const verified = join(root, 'data', 'importers-candidates.idx.verified');
    const stripMs = (text: string) => text.replace(/"ms":\d+/, '"ms":0');
    const cases = [['--json'], ['--json', '--limit', '4'], ['--json', '--limit', '0'], ['--json', '--cwd', '/home/dev/api'], ['--json', '--cwd', '/home/dev'], ['--json', '--source', 'codex'], ['--json', '--source', 'baton'], ['--json', '--source', 'claude', '--limit', '12'], ['--limit', '5'], ['--cwd', '/home/dev/web']];
    for (const args of cases) {
      // Trusted: answered from the index (the trace says so).
      await rm(trace, { force: true });
      const fast = await baton(['list', ...args, '--no-host'], { BATON_PHASE_TRACE: trace });
      expect(JSON.parse(await readFile(trace, 'utf8')).marks, args.join(' ')).toHaveProperty('index-listing');
      // Not confirmed by a full scan: the full scan answers.
      await rm(verified);
      await rm(trace, { force: true });
      const full = await baton(['list', ...args, '--no-host'], { BATON_PHASE_TRACE: trace });
      expect(JSON.parse(await readFile(trace, 'utf8')).marks, args.join(' ')).not.toHaveProperty('index-listing');
      expect(fast.code).toBe(0);
      expect(stripMs(fast.stdout), args.join(' ')).toBe(stripMs(full.stdout));
    }
  }, 120_000);
});
