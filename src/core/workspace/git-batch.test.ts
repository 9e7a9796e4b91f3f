import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { GIT_BATCH_MAX_CALLS, batchScript, runGitBatch } from './git-batch.js';
import { runGit, type GitResult } from './git.js';
import { cleanupTemp, tempDir, repoAt } from './test-support/repo.js';

/** A real repository: a commit, a big file (more than a pipe holds), a change and a binary file. */
function makeRepo() {
  const root = tempDir('baton-batch-');
  const repo = repoAt(root);
  repo.git('init', '-q', '-b', 'main');
  repo.git('config', 'user.email', 't@example.com');
  repo.git('config', 'user.name', 'T');
  repo.write('small.txt', 'one\n');
  repo.write('big.txt', 'line of text that repeats\n'.repeat(20_000));
  repo.write('bin.dat', new Uint8Array([0, 1, 2, 255, 0, 10, 13]));
  repo.commitAll('first');
  repo.write('small.txt', 'two\n');
  return repo;
}

const repo = makeRepo();
afterAll(() => cleanupTemp());

const plain = (r: GitResult) => ({ code: r.code, stdout: r.stdout.toString('base64'), stderr: r.stderr });
const eachAlone = (cwd: string, calls: string[][], env?: Record<string, string>) => Promise.all(calls.map((args) => runGit(cwd, args, undefined, env ? { env } : {})));

describe('runGitBatch: each command answers as it does on its own', () => {
  it('codes, stdout (binary, past a pipe buffer) and stderr of successes and failures, in order', async () => {
    const calls = [
      ['cat-file', '-p', 'HEAD:big.txt'], // 520 KB: more than a pipe holds, read while the others run
      ['cat-file', '-p', 'HEAD:bin.dat'], // NUL bytes
      ['config', '--get', 'remote.origin.url'], // exit 1, nothing printed
      ['rev-parse', '--verify', 'no-such-ref'], // exit 128 with a message
    ];
    const batch = await runGitBatch(repo.root, calls.map((args) => ({ args })));
    const alone = await eachAlone(repo.root, calls);
    expect(batch.map(plain)).toEqual(alone.map(plain));
    expect(batch.map((r) => r.code)).toEqual([0, 0, 1, 128]);
    expect(batch[0]!.stdout.length).toBe(26 * 20_000);
  });

  it('a usage error keeps its own code (129) and words', async () => {
    const calls = [['status', '--no-such-option'], ['rev-parse', 'HEAD']];
    expect((await runGitBatch(repo.root, calls.map((args) => ({ args })))).map(plain)).toEqual((await eachAlone(repo.root, calls)).map(plain));
  });

  it('streams a stdout to onStdout with the same bytes, and passes the environment (a private index)', async () => {
    const chunks: Buffer[] = [];
    const env = { GIT_INDEX_FILE: join(tempDir('baton-batch-index-'), 'index') };
    const [streamed, listed] = await runGitBatch(repo.root, [{ args: ['cat-file', '-p', 'HEAD:big.txt'], onStdout: (c) => chunks.push(c) }, { args: ['ls-files', '--stage'] }], { env });
    expect(streamed).toMatchObject({ code: 0, stderr: '' });
    expect(streamed!.stdout.length).toBe(0);
    expect(Buffer.concat(chunks).equals((await runGit(repo.root, ['cat-file', '-p', 'HEAD:big.txt'])).stdout)).toBe(true);
    // The private index does not exist: nothing is staged there, while the real index lists three files.
    expect(listed!.stdout.toString()).toBe('');
    expect((await runGit(repo.root, ['ls-files', '--stage'])).stdout.toString().trim().split('\n')).toHaveLength(3);
  });

  it('firstAlone: the first command ends before the others start, so they read what it wrote', async () => {
    const env = { GIT_INDEX_FILE: join(tempDir('baton-batch-index-'), 'index') };
    const [added, staged, cached] = await runGitBatch(repo.root, [{ args: ['add', '--all'] }, { args: ['ls-files', '--stage'] }, { args: ['diff', '--cached', '--name-only', 'HEAD'] }], { env, firstAlone: true });
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(staged!.stdout.toString().trim().split('\n')).toHaveLength(3);
    expect(cached!.stdout.toString()).toBe('small.txt\n');
    expect(batchScript([{ args: ['a'] }, { args: ['b'] }], true).split('\n')[0]).not.toMatch(/&$/);
  });

  it('each git holds only its own stdin, stdout and stderr: nothing it leaves running keeps the batch open', async () => {
    // An alias runs a shell from git, with git's descriptors: ls lists them (3 is its own listing).
    const calls = [['-c', 'alias.fds=!ls /proc/self/fd', 'fds'], ['-c', 'alias.fds=!ls /proc/self/fd', 'fds'], ['--version']];
    const results = await runGitBatch(repo.root, calls.map((args) => ({ args })));
    // The same list as a git spawned on its own (this process may pass on a descriptor of its own to both).
    const alone = (await runGit(repo.root, calls[0]!)).stdout.toString();
    expect(alone.trim().split('\n').slice(0, 3)).toEqual(['0', '1', '2']);
    for (const result of results.slice(0, 2)) expect(result.stdout.toString()).toBe(alone);
  });

  it('a directory that does not exist gives what each command gives on its own', async () => {
    const gone = join(repo.root, 'gone');
    const calls = [['rev-parse', '--show-toplevel'], ['status']];
    const batch = await runGitBatch(gone, calls.map((args) => ({ args })));
    expect(batch.map(plain)).toEqual((await eachAlone(gone, calls)).map(plain));
    expect(batch[0]!.code).not.toBe(0);
  });

  it(`refuses more than ${GIT_BATCH_MAX_CALLS} calls (the shell's descriptors)`, () => {
    expect(() => runGitBatch(repo.root, Array.from({ length: GIT_BATCH_MAX_CALLS + 1 }, () => ({ args: ['--version'] })))).toThrow(RangeError);
  });

  it('quotes every argument: quotes, $(…), backticks, globs, newlines and semicolons reach git as written', async () => {
    const hostile = ["it's", '$(touch pwned)', '`touch pwned`', '*', 'a\nb', '; touch pwned', '"', '\\', '$HOME', "'; echo '", '-', ' '];
    const [quoted] = await runGitBatch(repo.root, [{ args: ['rev-parse', '--sq-quote', ...hostile] }, { args: ['--version'] }]);
    expect(quoted!.stdout.toString()).toBe((await runGit(repo.root, ['rev-parse', '--sq-quote', ...hostile])).stdout.toString());
    expect(batchScript([{ args: hostile }])).not.toContain("'it's'");
    expect((await runGit(repo.root, ['status', '--porcelain'])).stdout.toString()).not.toContain('pwned');
  });

  it('300 generated argument lists come back from git exactly as given', async () => {
    const arg = fc.string({ unit: 'binary', minLength: 0, maxLength: 12 }).filter((s) => !s.includes('\0'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(arg, { minLength: 1, maxLength: 4 }), { minLength: 2, maxLength: 4 }), async (lists) => {
        const results = await runGitBatch(repo.root, lists.map((args) => ({ args: ['rev-parse', '--sq-quote', ...args] })));
        const alone = await eachAlone(repo.root, lists.map((args) => ['rev-parse', '--sq-quote', ...args]));
        expect(results.map(plain)).toEqual(alone.map(plain));
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
