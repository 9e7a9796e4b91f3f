import { afterAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { INDEX_COPY_PREFIX } from './temp-index.js';
import { GitSpawner, STALE_BATCH_DIR_MS } from './git-spawner.js';
import { runGitBatch } from './git-batch.js';
import { type GitResult } from './git.js';
import { cleanupTemp, tempDir, repoAt } from './test-support/repo.js';

/** A real repository: a commit, a big file (more than a pipe holds), a change, a binary file, a name with a quote. */
function makeRepo() {
  const repo = repoAt(tempDir('baton-spawner-'));
  repo.git('init', '-q', '-b', 'main');
  repo.git('config', 'user.email', 't@example.com');
  repo.git('config', 'user.name', 'T');
  repo.write('small.txt', 'one\n');
  repo.write('big.txt', 'line of text that repeats\n'.repeat(20_000));
  repo.write('bin.dat', new Uint8Array([0, 1, 2, 255, 0, 10, 13]));
  repo.write("it's $(here) `x`.txt", 'quoted\n');
  repo.commitAll('first');
  repo.write('small.txt', 'two\n');
  return repo;
}

const repo = makeRepo();
const spawner = new GitSpawner().start();
afterAll(() => {
  spawner.close();
  cleanupTemp();
});

const plain = (r: GitResult) => ({ code: r.code, stdout: r.stdout.toString('base64'), stderr: r.stderr });
/** The same batch as runGitBatch runs it in a child of this process. */
const direct = (cwd: string, calls: string[][]) => runGitBatch(cwd, calls.map((args) => ({ args })));

/** Polls `check` until it holds; fails with `what` after `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  for (const start = Date.now(); !check(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * A git call (an alias) that runs until the test lets it end, 30 s at most: the test acts once it
 * has started (a file it touches), not after a guessed sleep a loaded machine can outrun.
 */
function heldCall() {
  const dir = tempDir('baton-spawner-held-');
  const started = join(dir, 'started');
  const release = join(dir, 'release');
  const ended = join(dir, 'ended');
  return {
    args: ['-c', `alias.held=!touch '${started}'; i=0; while [ ! -e '${release}' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; touch '${ended}'; echo released`, 'held'],
    started: () => until(() => existsSync(started), 'the held git to start'),
    /** Lets it end and, if it started, waits until it has: nothing outlives the test. */
    release: async () => {
      writeFileSync(release, '');
      if (existsSync(started)) await until(() => existsSync(ended), 'the held git to end');
    },
  };
}

describe.skipIf(process.platform === 'win32')('GitSpawner: a batch answers as it does from a spawn of the host', () => {
  it('codes, stdout (binary, past a pipe buffer) and stderr of successes and failures, in order', async () => {
    const calls = [
      ['cat-file', '-p', 'HEAD:big.txt'],
      ['cat-file', '-p', 'HEAD:bin.dat'],
      ['config', '--get', 'remote.origin.url'], // exit 1, nothing printed
      ['rev-parse', '--verify', 'no-such-ref'], // exit 128 with a message
    ];
    const before = spawner.batchesRun;
    const shelled = await spawner.run(repo.root, calls);
    expect(spawner.batchesRun).toBe(before + 1);
    expect(shelled!.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
    expect(shelled!.map((r) => r.code)).toEqual([0, 0, 1, 128]);
    expect(shelled![0]!.stdout.length).toBe(26 * 20_000);
  });

  it("arguments with quotes, $( ) and backticks reach git as given (nothing is interpreted)", async () => {
    const calls = [['ls-files', '-z', '--', "it's $(here) `x`.txt"], ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all']];
    const shelled = await spawner.run(join(repo.root), calls);
    expect(shelled![0]!.stdout.toString()).toBe("it's $(here) `x`.txt\0");
    expect(shelled!.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
  });

  it('a missing directory fails every call with 128, as a spawn there does', async () => {
    const shelled = await spawner.run(join(repo.root, 'no-such-dir'), [['rev-parse', 'HEAD'], ['status']]);
    expect(shelled!.map((r) => r.code)).toEqual([128, 128]);
    expect((await direct(join(repo.root, 'no-such-dir'), [['rev-parse', 'HEAD'], ['status']])).map((r) => r.code)).toEqual([128, 128]);
  });

  it('batches started together each get their own answers', async () => {
    // Each batch's own output (its index), so an answer given to the wrong batch fails.
    const many = await Promise.all(
      Array.from({ length: 12 }, (_, i) => spawner.run(repo.root, [['rev-parse', '--sq-quote', `batch ${i}`], ['cat-file', '-s', i % 2 ? 'HEAD:small.txt' : 'HEAD:big.txt']])),
    );
    many.forEach((results, i) => {
      expect(results![0]!.stdout.toString().trim()).toBe(`'batch ${i}'`);
      expect(results![1]!.stdout.toString().trim()).toBe(i % 2 ? '4' : String(26 * 20_000));
    });
  });

  it('declines (null) what one line cannot carry: a newline, CR or NUL in a path or an argument', async () => {
    expect(await spawner.run(`${repo.root}\nx`, [['status']])).toBeNull();
    expect(await spawner.run(repo.root, [['log', '--format=a\nb']])).toBeNull();
    // dash's `read` drops NUL bytes: 'a\0b' would reach git as 'ab'.
    expect(await spawner.run(repo.root, [['rev-parse', '--sq-quote', 'a\0b']])).toBeNull();
    expect(await spawner.run(`${repo.root}\0`, [['status']])).toBeNull();
    expect(await spawner.run(repo.root, [['rev-parse', '--sq-quote', 'a\rb']])).toBeNull();
    expect(await spawner.run(`${repo.root}\r`, [['status']])).toBeNull();
  });

  it('arguments that start with - reach git as arguments, as from a spawn', async () => {
    const calls = [['rev-parse', '--sq-quote', '-n', '-e', '--', '-'], ['log', '-1', '--format=%s', '--end-of-options', 'HEAD']];
    const shelled = await spawner.run(repo.root, calls);
    expect(shelled![0]!.stdout.toString()).toBe(" '-n' '-e' '--' '-'\n");
    expect(shelled!.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
  });

  it("declines a cwd that is not absolute ('-' is $OLDPWD to cd; a relative one is the shell's), and runGitBatch answers as a spawn", async () => {
    const calls = [['rev-parse', '--show-toplevel'], ['status', '--porcelain=v2', '-z']];
    const fromHere = relative(process.cwd(), repo.root);
    for (const cwd of ['-', fromHere, '.']) {
      expect(await spawner.run(cwd, calls)).toBeNull();
      expect((await runGitBatch(cwd, calls.map((args) => ({ args })), { spawner })).map(plain)).toEqual((await direct(cwd, calls)).map(plain));
    }
  });

  it('no temporary directory (a missing temp root): null, and runGitBatch answers as a spawn', async () => {
    const own = new GitSpawner({ tempRoot: join(tempDir('baton-spawner-root-'), 'missing') }).start();
    try {
      const calls = [['rev-parse', 'HEAD'], ['cat-file', '-t', 'HEAD']];
      expect(await own.run(repo.root, calls)).toBeNull();
      expect((await runGitBatch(repo.root, calls.map((args) => ({ args })), { spawner: own })).map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
    } finally {
      own.close();
    }
  });

  it('a relative temp root: null (its outputs would be resolved from the repository), and runGitBatch answers as a spawn', async () => {
    const own = new GitSpawner({ tempRoot: relative(process.cwd(), tempDir('baton-spawner-root-')) }).start();
    try {
      const calls = [['rev-parse', 'HEAD']];
      expect(await own.run(repo.root, calls)).toBeNull();
      expect((await runGitBatch(repo.root, calls.map((args) => ({ args })), { spawner: own })).map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
    } finally {
      own.close();
    }
  });

  it('a batch whose script is gone before the shell reads it answers null; the shell lives on and serves the next batch', async () => {
    const root = tempDir('baton-spawner-root-');
    const own = new GitSpawner({ tempRoot: root }).start();
    try {
      expect((await own.run(repo.root, [['rev-parse', 'HEAD']]))![0]!.code).toBe(0);
      const pid = own.pid!;
      // The shell stopped: the batch's script is written and its line queued, then the directory goes.
      process.kill(pid, 'SIGSTOP');
      const running = own.run(repo.root, [['rev-parse', 'HEAD']]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (const name of readdirSync(root)) rmSync(join(root, name), { recursive: true, force: true });
      process.kill(pid, 'SIGCONT');
      expect(await running).toBeNull();
      const [next] = (await own.run(repo.root, [['rev-parse', 'HEAD']]))!;
      expect(next!.code).toBe(0);
      expect(own.pid).toBe(pid);
    } finally {
      own.close();
    }
  });

  it("a batch directory that cannot be removed does not fail the batch's answer", async () => {
    const root = tempDir('baton-spawner-root-');
    const own = new GitSpawner({ tempRoot: root }).start();
    const held = heldCall();
    try {
      const running = own.run(repo.root, [held.args]);
      await held.started();
      // The temp root becomes a file while the batch runs: removing its directory fails (ENOTDIR).
      renameSync(root, `${root}-moved`);
      writeFileSync(root, 'not a directory');
      await held.release();
      const [result] = (await running)!;
      expect(result!.code).toBe(0);
      expect(readdirSync(`${root}-moved`).filter((name) => name.startsWith('baton-git-'))).toHaveLength(1);
    } finally {
      await held.release();
      own.close();
      rmSync(`${root}-moved`, { recursive: true, force: true });
    }
  });

  it("stdout past maxBuffer: code 128, the first maxBuffer bytes and Node's words; no more than maxBuffer + 1 bytes are read", async () => {
    const limit = 64 * 1024;
    const own = new GitSpawner({ maxBuffer: limit }).start();
    try {
      const [result] = (await own.run(repo.root, [['cat-file', '-p', 'HEAD:big.txt']]))!;
      expect(result!.code).toBe(128);
      expect(result!.stderr).toBe('stdout maxBuffer length exceeded');
      expect(result!.stdout.equals(Buffer.from('line of text that repeats\n'.repeat(20_000)).subarray(0, limit))).toBe(true);
      // The host held at most limit + 1 bytes of the 520 KB output (the whole file when read at once).
      expect(result!.stdout.buffer.byteLength).toBeLessThanOrEqual(limit + 1);
    } finally {
      own.close();
    }
  });

  it("start() sweeps this user's stale batch directories, never through a symlink", async () => {
    const root = tempDir('baton-spawner-root-');
    const outside = tempDir('baton-spawner-outside-');
    const old = (Date.now() - STALE_BATCH_DIR_MS - 60_000) / 1000;
    const dir = (name: string, stale: boolean) => {
      mkdirSync(join(root, name, 'sub'), { recursive: true });
      writeFileSync(join(root, name, 'sub', 'o0'), 'x');
      if (stale) utimesSync(join(root, name), old, old);
    };
    dir('baton-git-crashed', true);
    dir(`${INDEX_COPY_PREFIX}crashed`, true); // a capture's copy of the index (temp-index.ts) is swept too
    dir('baton-git-running', false);
    dir('other-old', true);
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    utimesSync(outside, old, old);
    symlinkSync(outside, join(root, 'baton-git-link'));
    const own = new GitSpawner({ tempRoot: root }).start();
    try {
      await own.swept;
      expect(readdirSync(root).sort()).toEqual(['baton-git-link', 'baton-git-running', 'other-old']);
      expect(lstatSync(join(root, 'baton-git-link')).isSymbolicLink()).toBe(true);
      expect(existsSync(join(outside, 'keep.txt'))).toBe(true);
    } finally {
      own.close();
    }
  });

  it('an error on the shell\'s stdout answers its batches null (never thrown in the host), and a new shell serves the next', async () => {
    const own = new GitSpawner().start();
    const held = heldCall();
    try {
      const pid = own.pid!;
      const running = own.run(repo.root, [held.args]);
      await held.started();
      (own as unknown as { child: { stdout: { destroy: (error: Error) => void } } }).child.stdout.destroy(new Error('pipe failed'));
      expect(await running).toBeNull();
      const calls = [['rev-parse', 'HEAD']];
      expect((await own.run(repo.root, calls))!.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
      expect(own.pid).not.toBe(pid);
    } finally {
      await held.release();
      own.close();
    }
  });

  it('a shell that died answers null, runGitBatch then runs the batch itself, and a new shell serves the next batch', async () => {
    const own = new GitSpawner().start();
    const held = heldCall();
    try {
      const calls = [['rev-parse', 'HEAD'], ['status', '--porcelain=v2', '-z']];
      const pid = own.pid!;
      // Killed while a batch runs (a git that runs until released): that batch answers null.
      const running = own.run(repo.root, [held.args]);
      await held.started();
      process.kill(pid, 'SIGKILL');
      expect(await running).toBeNull();
      // The batch API never sees it: the same results as a spawn of this process.
      const viaBatch = await runGitBatch(repo.root, calls.map((args) => ({ args })), { spawner: own });
      expect(viaBatch.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
      // A new shell answers later batches.
      expect((await own.run(repo.root, calls))!.map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
      expect(own.pid).not.toBe(pid);
    } finally {
      await held.release();
      own.close();
    }
  });

  /** A private index for one batch, as temp-index.ts makes it: a copy of the repository's, in a directory of its own. */
  const privateIndex = (dirName = 'baton-index-') => {
    const path = join(tempDir(dirName), 'index');
    copyFileSync(join(repo.root, '.git', 'index'), path);
    return path;
  };
  const indexBatch = (onStdout?: (chunk: Buffer) => void) => [
    { args: ['add', '--all', '--ignore-errors'] },
    { args: ['diff', '--cached', '-z', '--raw', '--numstat', 'HEAD'] },
    { args: ['diff', '--cached', '--binary', '--full-index', 'HEAD'], ...(onStdout ? { onStdout } : {}) },
  ];

  it("the temporary index's batch (its GIT_INDEX_FILE, add first alone, the patch streamed) answers as from a spawn, and the repository's index is untouched", async () => {
    writeFileSync(join(repo.root, 'untracked new.txt'), 'new\n');
    try {
      const realIndex = readFileSync(join(repo.root, '.git', 'index'));
      // The spawner's answer and a spawn's, each on a fresh copy of the index (add writes it).
      const viaSpawner = { chunks: [] as Buffer[] };
      const ownIndex = privateIndex();
      const before = spawner.batchesRun;
      const shelled = await runGitBatch(repo.root, indexBatch((chunk) => viaSpawner.chunks.push(chunk)), { env: { GIT_INDEX_FILE: ownIndex }, firstAlone: true, spawner });
      expect(spawner.batchesRun).toBe(before + 1);
      const spawned = { chunks: [] as Buffer[] };
      const direct = await runGitBatch(repo.root, indexBatch((chunk) => spawned.chunks.push(chunk)), { env: { GIT_INDEX_FILE: privateIndex() }, firstAlone: true });
      expect(shelled.map(plain)).toEqual(direct.map(plain));
      // The diffs ran after the add (they see the untracked file it added), not beside it.
      expect(shelled[1]!.stdout.toString()).toContain('untracked new.txt');
      const patch = Buffer.concat(viaSpawner.chunks);
      expect(patch.equals(Buffer.concat(spawned.chunks))).toBe(true);
      expect(patch.toString()).toContain('+new');
      expect(shelled[2]!.stdout.length).toBe(0);
      expect(readFileSync(join(repo.root, '.git', 'index')).equals(realIndex)).toBe(true);
    } finally {
      rmSync(join(repo.root, 'untracked new.txt'));
    }
  });

  it("a GIT_INDEX_FILE with a quote, $( ) and spaces reaches git as given", async () => {
    const index = privateIndex("baton-index-it's $(x) `y` ");
    writeFileSync(join(repo.root, 'only-in-private.txt'), 'x\n');
    try {
      const calls = [['add', '--', 'only-in-private.txt'], ['ls-files', '--cached', '--', 'only-in-private.txt']];
      const [added, listed] = (await spawner.run(repo.root, calls, { env: { GIT_INDEX_FILE: index }, firstAlone: true }))!;
      expect(added!.code).toBe(0);
      // In the index at that path, and not in the repository's own.
      expect(listed!.stdout.toString()).toBe('only-in-private.txt\n');
      expect(repo.git('ls-files', '--cached', '--', 'only-in-private.txt')).toBe('');
    } finally {
      rmSync(join(repo.root, 'only-in-private.txt'));
    }
  });

  it("declines an environment it cannot carry: another variable (a caller's GIT_* never reaches git), a relative path, a newline, CR or NUL", async () => {
    const index = privateIndex();
    const envs: Record<string, string>[] = [{ GIT_DIR: '/tmp' }, { GIT_INDEX_FILE: index, GIT_WORK_TREE: '/' }, { PATH: '/usr/bin' }, { GIT_INDEX_FILE: 'index' }, { GIT_INDEX_FILE: `${index}\n` }, { GIT_INDEX_FILE: `${index}\r` }, { GIT_INDEX_FILE: `${index}\0` }];
    for (const env of envs) {
      expect(await spawner.run(repo.root, [['rev-parse', 'HEAD']], { env })).toBeNull();
    }
  });

  it('a streamed stdout past maxBuffer declines the batch before any chunk is given; runGitBatch then streams it whole from a spawn', async () => {
    const limit = 64 * 1024;
    const own = new GitSpawner({ maxBuffer: limit }).start();
    try {
      const given: Buffer[] = [];
      expect(await own.run(repo.root, [['cat-file', '-p', 'HEAD:big.txt']], { onStdout: [(chunk) => given.push(chunk)] })).toBeNull();
      expect(given).toEqual([]);
      const [result] = await runGitBatch(repo.root, [{ args: ['cat-file', '-p', 'HEAD:big.txt'], onStdout: (chunk) => given.push(chunk) }], { spawner: own });
      expect(result!.code).toBe(0);
      expect(Buffer.concat(given).length).toBe(26 * 20_000);
      // Within the limit, the spawner streams it in chunks (the whole, not cut at a chunk).
      const small: Buffer[] = [];
      const [streamed] = (await own.run(repo.root, [['cat-file', '-p', 'HEAD:small.txt']], { onStdout: [(chunk) => small.push(chunk)] }))!;
      expect(streamed!.code).toBe(0);
      expect(Buffer.concat(small).toString()).toBe('one\n');
    } finally {
      own.close();
    }
  });

  it('the first call alone: the others start only once it ended, whatever its exit code', async () => {
    const marker = join(tempDir('baton-spawner-order-'), 'first');
    const [first, second] = (await spawner.run(repo.root, [['-c', `alias.slow=!sleep 0.3; echo done > '${marker}'; exit 3`, 'slow'], ['-c', `alias.look=!cat '${marker}'`, 'look']], { firstAlone: true }))!;
    expect(first!.code).toBe(3);
    expect(second!.stdout.toString()).toBe('done\n');
  });

  it('a closed spawner declines, and runGitBatch answers as without it', async () => {
    const own = new GitSpawner().start();
    own.close();
    expect(await own.run(repo.root, [['rev-parse', 'HEAD']])).toBeNull();
    const calls = [['rev-parse', 'HEAD'], ['cat-file', '-t', 'HEAD']];
    expect((await runGitBatch(repo.root, calls.map((args) => ({ args })), { spawner: own })).map(plain)).toEqual((await direct(repo.root, calls)).map(plain));
  });
});

describe.skipIf(process.platform === 'win32')('GitSpawner: the process it lives in', () => {
  it('a batch keeps the process alive until it is answered; an idle shell never does', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const script = [
      `import { GitSpawner } from ${JSON.stringify(join(import.meta.dirname, 'git-spawner.ts'))};`,
      'const spawner = new GitSpawner().start();',
      `const [head] = (await spawner.run(${JSON.stringify(repo.root)}, [['rev-parse', 'HEAD']])) ?? [];`,
      "process.stdout.write('head ' + head.stdout.toString());",
    ].join('\n');
    // Nothing else holds this process's event loop: with the shell's stdout unref'd while the
    // batch ran, Node would end it with the top-level await unsettled (exit 13, nothing printed).
    // After the answer the idle shell must not keep it either (execFile would time out).
    const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 });
    expect(run.stdout).toBe(`head ${repo.git('rev-parse', 'HEAD')}\n`);
  });
});
