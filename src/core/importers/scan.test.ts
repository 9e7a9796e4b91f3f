import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isImporterError } from './errors.js';
import { SCAN_CACHE_VERSION } from './limits.js';
import { countingReader, nodeImportReader, type ImportReader } from './reader.js';
import { findLatestSession, readAgentSession } from './read-session.js';
import { candidateIndexFileFor, encodeCandidateIndex } from './candidate-index.js';
import { scanAgentSessions } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, jsonl, writeLog } from './test-fixtures/build-logs.js';
import { needsUser } from '../test-support/needs-user.js';

const ID_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const ID_B = 'bbbbbbbb-0000-4000-8000-000000000002';
const CODEX_ID = '019b0000-0000-7000-8000-00000000000c';

let home: string;
let env: NodeJS.ProcessEnv;
let cacheFile: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-scan-'));
  env = { HOME: home };
  cacheFile = join(home, 'baton-data', 'importers-cache.json');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function shortSession(id: string, prompt: string, cwd = '/home/dev/a'): unknown[] {
  return [
    claude.user({ uuid: `${id}-u1`, cwd, sessionId: id }, prompt),
    claude.assistant({ uuid: `${id}-a1`, parentUuid: `${id}-u1`, cwd, sessionId: id }, `${id}-m1`, claude.text('ok')),
  ];
}

async function writeCorpus(): Promise<{ a: string; b: string; cx: string; zst: string }> {
  const a = await writeLog(claudeLogPath(home, '/home/dev/a', ID_A), shortSession(ID_A, 'First session'));
  const b = await writeLog(claudeLogPath(home, '/home/dev/b', ID_B), shortSession(ID_B, 'Second session', '/home/dev/b'));
  const cx = await writeLog(codexLogPath(join(home, '.codex'), CODEX_ID), [codex.meta(CODEX_ID), codex.turnContext(), codex.message('user', 'Codex prompt'), codex.message('assistant', 'hi')]);
  const zst = codexLogPath(join(home, '.codex'), '019b0000-0000-7000-8000-0000000000ff', '2026/10/01') + '.zst';
  await mkdir(dirname(zst), { recursive: true });
  await writeFile(zst, Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3]));
  return { a, b, cx, zst };
}

describe('scanAgentSessions', () => {
  it('lists both tools, notes a .jsonl.zst, and a second scan opens no unchanged file', async () => {
    const { zst } = await writeCorpus();
    const first = await scanAgentSessions({ env, cacheFile });
    expect(first.stats).toMatchObject({ files: 4, parsed: 3, cached: 0, skipped: 0 });
    expect(first.candidates.map((c) => c.title).sort()).toEqual(['', 'Codex prompt', 'First session', 'Second session']);
    const z = first.candidates.find((c) => c.path === zst)!;
    expect(z.note).toMatch(/zstd/);
    expect(z.externalId).toBe('019b0000-0000-7000-8000-0000000000ff');
    expect(z.resumeCommand).toBe('codex resume 019b0000-0000-7000-8000-0000000000ff');
    const a = first.candidates.find((c) => c.externalId === ID_A)!;
    expect(a).toMatchObject({ source: 'claude', cwd: '/home/dev/a', branch: 'main', messageCount: 2, model: 'claude-opus-4-6', resumeCommand: `claude --resume ${ID_A}` });

    const reader = countingReader();
    const second = await scanAgentSessions({ env, cacheFile, reader });
    expect(second.stats).toMatchObject({ files: 4, parsed: 0, cached: 3, bytesRead: 0 });
    expect(reader.counts.opens).toBe(0);
    expect(second.candidates).toEqual(first.candidates);
    const cacheStat = await stat(cacheFile);
    expect(cacheStat.mode & 0o777).toBe(0o600);
    expect((await readdir(dirname(cacheFile))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a cold scan reads each small file once: the append check comes from the bytes already read', async () => {
    await writeCorpus();
    const reader = countingReader();
    const cold = await scanAgentSessions({ env, cacheFile, reader });
    expect(cold.stats.parsed).toBe(3);
    expect(reader.counts.opens).toBe(3);
    expect(reader.counts.reads).toBe(3);
    for (const [path, bytes] of reader.counts.byPath) expect(bytes).toBe((await stat(path)).size);
  });

  it('re-reads only the grown file, from the cached offset', async () => {
    const { a } = await writeCorpus();
    await scanAgentSessions({ env, cacheFile });
    const added = jsonl([claude.user({ uuid: 'u2', parentUuid: `${ID_A}-a1`, sessionId: ID_A }, 'more'), claude.assistant({ uuid: 'a2', parentUuid: 'u2', sessionId: ID_A }, 'm2', claude.text('done'))]);
    const before = (await stat(a)).size;
    await appendFile(a, added);
    const reader = countingReader();
    const { stats, candidates } = await scanAgentSessions({ env, cacheFile, reader });
    expect(stats).toMatchObject({ parsed: 1, cached: 2 });
    expect([...reader.counts.byPath.keys()]).toEqual([a]);
    // The appended bytes plus two 64-byte continuity checks; not the part read before.
    expect(reader.counts.bytes).toBeLessThanOrEqual(Buffer.byteLength(added) + 128);
    expect(reader.counts.bytes).toBeLessThan(before + Buffer.byteLength(added));
    const c = candidates.find((x) => x.externalId === ID_A)!;
    expect(c.messageCount).toBe(4);
    expect(c.fingerprint).toBe((await readAgentSession('claude', a, env)).fingerprint);
  });

  it('reads a rewritten file afresh instead of continuing it', async () => {
    const { a } = await writeCorpus();
    await scanAgentSessions({ env, cacheFile });
    const lines = shortSession(ID_A, 'Rewritten prompt');
    await writeLog(a, [...lines, ...lines.map((l) => ({ ...(l as object), uuid: `${(l as { uuid: string }).uuid}x` }))]);
    const { candidates } = await scanAgentSessions({ env, cacheFile });
    const c = candidates.find((x) => x.externalId === ID_A)!;
    expect(c.title).toBe('Rewritten prompt');
    // Two user lines and two assistant lines, but the copies share message.id with the originals.
    expect(c.messageCount).toBe(3);
    expect(c.fingerprint).toBe((await readAgentSession('claude', a, env)).fingerprint);
  });

  it('a scan that reads no file rewrites only the index: the digest cache keeps its inode and bytes', async () => {
    await writeCorpus();
    await scanAgentSessions({ env, cacheFile });
    const indexFile = candidateIndexFileFor(cacheFile);
    const [cacheBefore, indexBefore, bytesBefore] = await Promise.all([stat(cacheFile), stat(indexFile), readFile(cacheFile)]);
    // A new, empty project folder: the folders' view (the index's meta) changes, no digest does.
    await mkdir(join(home, '.claude', 'projects', '-home-dev-empty'));
    const { stats } = await scanAgentSessions({ env, cacheFile });
    expect(stats.parsed).toBe(0);
    const [cacheAfter, indexAfter] = await Promise.all([stat(cacheFile), stat(indexFile)]);
    expect(indexAfter.ino).not.toBe(indexBefore.ino);
    expect(cacheAfter.ino).toBe(cacheBefore.ino);
    expect(cacheAfter.mtimeMs).toBe(cacheBefore.mtimeMs);
    expect(await readFile(cacheFile)).toEqual(bytesBefore);
  });

  it('tolerates a damaged cache file and rebuilds it', async () => {
    await writeCorpus();
    await mkdir(dirname(cacheFile), { recursive: true });
    await writeFile(cacheFile, '{"version":1,"entries":{"x":');
    const { stats } = await scanAgentSessions({ env, cacheFile });
    expect(stats.parsed).toBe(3);
    expect(JSON.parse(await readFile(cacheFile, 'utf8')).version).toBe(SCAN_CACHE_VERSION);
  });

  it('re-reads a cache file another process replaced instead of serving its memory of it', async () => {
    await writeCorpus();
    await scanAgentSessions({ env, cacheFile });
    expect((await scanAgentSessions({ env, cacheFile })).stats.parsed).toBe(0);
    await writeFile(cacheFile, JSON.stringify({ version: SCAN_CACHE_VERSION, entries: {} }));
    await writeFile(candidateIndexFileFor(cacheFile), encodeCandidateIndex([]));
    expect((await scanAgentSessions({ env, cacheFile })).stats).toMatchObject({ parsed: 3, cached: 0 });
  });

  it('skips empty, snapshot-only and sub-agent files with a counted reason', async () => {
    const dir = dirname(claudeLogPath(home, '/home/dev/a', ID_A));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${ID_A}.jsonl`), '');
    await writeLog(join(dir, `${ID_B}.jsonl`), [claude.summary('x'), claude.snapshot('s')]);
    await writeLog(join(dir, 'agent-1234.jsonl'), shortSession(ID_A, 'sub-agent'));
    await mkdir(join(dir, 'not-a-file.jsonl'));
    const { candidates, stats } = await scanAgentSessions({ env });
    expect(candidates).toEqual([]);
    expect(stats.skipped).toBe(2);
    expect(stats.skippedReasons).toEqual({ 'empty file': 1, 'no messages': 1, 'claude sub-agent log': 1 });
  });

  it('lists an unreadable file (chmod 000) with a note instead of failing', async (ctx) => {
    needsUser(ctx, 'non-root', 'chmod 000 does not stop root from reading; the injected-EACCES test covers root');
    const { a } = await writeCorpus();
    await chmod(a, 0o000);
    const { candidates } = await scanAgentSessions({ env });
    expect(candidates.find((c) => c.path === a)!.note).toMatch(/EACCES/);
    await expect(readAgentSession('claude', a, env)).rejects.toSatisfy((e) => isImporterError(e, 'ACCESS_DENIED'));
  });

  it('lists a file that fails to open (injected EACCES, since root reads anything) with a note', async () => {
    if (process.getuid?.() === 0) console.log('running as root: chmod 000 cannot make a file unreadable, so EACCES is injected here');
    const { a } = await writeCorpus();
    const failing: ImportReader = {
      ...nodeImportReader,
      async open(path) {
        if (path === a) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return nodeImportReader.open(path);
      },
      // The cold scan's batched whole reads fail the same way (and fall back to open()).
      async readPrefixes(items) {
        const out = await nodeImportReader.readPrefixes!(items);
        return out.map((r, i) => (items[i]!.path === a ? Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }) : r));
      },
    };
    const { candidates, stats } = await scanAgentSessions({ env, reader: failing });
    expect(candidates).toHaveLength(4);
    expect(candidates.find((c) => c.path === a)).toMatchObject({ note: expect.stringMatching(/EACCES/), externalId: ID_A, messageCount: 0 });
    expect(stats.parsed).toBe(3);
    await expect(readAgentSession('claude', a, env, { reader: failing })).rejects.toSatisfy((e) => isImporterError(e, 'ACCESS_DENIED'));
  });

  it('honours CLAUDE_CONFIG_DIR with a fake HOME', async () => {
    const config = join(home, 'claude-config');
    await writeLog(join(config, 'projects', '-w', `${ID_A}.jsonl`), shortSession(ID_A, 'From config dir'));
    await writeLog(claudeLogPath(home, '/w', ID_B), shortSession(ID_B, 'From home'));
    const withConfig = await scanAgentSessions({ env: { HOME: home, CLAUDE_CONFIG_DIR: config } });
    expect(withConfig.candidates.map((c) => c.title)).toEqual(['From config dir']);
    const plain = await scanAgentSessions({ env: { HOME: home } });
    expect(plain.candidates.map((c) => c.title)).toEqual(['From home']);
  });
});

describe('findLatestSession and readAgentSession by id', () => {
  it('finds the most recently written session, optionally in one cwd', async () => {
    const { a, b } = await writeCorpus();
    const old = new Date('2026-01-01T00:00:00Z');
    await utimes(a, old, old);
    expect((await findLatestSession('claude', env))!.externalId).toBe(ID_B);
    expect((await findLatestSession('claude', env, { cwd: '/home/dev/a' }))!.externalId).toBe(ID_A);
    expect((await findLatestSession('codex', env))!.externalId).toBe(CODEX_ID);
    expect(await findLatestSession('claude', { HOME: join(home, 'nobody') })).toBeNull();
    expect((await readAgentSession('claude', ID_B, env)).path).toBe(b);
  });

  it('answers NOT_FOUND for an unknown id and BAD_REQUEST for a bad id or a .zst', async () => {
    const { zst } = await writeCorpus();
    await expect(readAgentSession('claude', 'cccccccc-0000-4000-8000-000000000000', env)).rejects.toSatisfy((e) => isImporterError(e, 'NOT_FOUND'));
    await expect(readAgentSession('codex', '-rf', env)).rejects.toSatisfy((e) => isImporterError(e, 'BAD_REQUEST'));
    await expect(readAgentSession('codex', zst, env)).rejects.toSatisfy((e) => isImporterError(e, 'BAD_REQUEST'));
    await expect(readAgentSession('claude', join(home, 'missing.jsonl'), env)).rejects.toSatisfy((e) => isImporterError(e, 'NOT_FOUND'));
  });
});

describe('a cold scan lets each settled batch go (issue 15)', () => {
  it("releases a settled batch's discovery records (found file, stat) before the read's end, and lists the same", async () => {
    const ids = Array.from({ length: 3 * 256 + 10 }, (_, i) => `dddddddd-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const [i, id] of ids.entries()) await writeLog(claudeLogPath(home, `/home/dev/p${i % 4}`, id), shortSession(id, `prompt ${i}`, `/home/dev/p${i % 4}`));
    // A full collection on demand (the test runner's process has no --expose-gc of its own).
    const { setFlagsFromString } = await import('node:v8');
    setFlagsFromString('--expose-gc');
    const gc = (await import('node:vm')).runInNewContext('gc') as () => void;
    // Every stat the scan got, held weakly; at the last batch's read, how many of them are still alive.
    const stats: Array<WeakRef<object>> = [];
    let aliveAtLastBatch = -1;
    let batches = 0;
    const reader: ImportReader = {
      ...nodeImportReader,
      async statMany(paths) {
        const out = await nodeImportReader.statMany!(paths);
        for (const s of out) stats.push(new WeakRef(s));
        return out;
      },
      async readPrefixes(items) {
        batches += 1;
        if (batches === 4) {
          await new Promise((r) => setImmediate(r)); // out of the job that may hold the WeakRefs' targets
          gc();
          aliveAtLastBatch = stats.filter((w) => w.deref() !== undefined).length;
        }
        return nodeImportReader.readPrefixes!(items);
      },
    };
    const result = await scanAgentSessions({ env, reader });
    expect(result.candidates).toHaveLength(ids.length);
    expect(batches).toBe(4);
    expect(stats).toHaveLength(ids.length);
    // Three batches of 256 settled: their stats are gone, only the last batch's 10 are alive.
    expect(aliveAtLastBatch).toBe(10);
  }, 60_000);
});
