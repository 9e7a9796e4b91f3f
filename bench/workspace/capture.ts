/**
 * Workspace capture benchmark (issue #5):
 *   1. capture of a repository with 1,000 changed files;
 *   2. capture of a 100 MB patch (hashed while streaming, referenced not stored past 50 MiB);
 *   3. the diff viewer's file list of 1,000 files from a stored snapshot (session.json).
 * Baselines are measured in the same run: the bare git commands the capture is built on, and
 * JSON.parse of the stored snapshot. Data lives under bench/.data/workspace and is removed at the end.
 *
 *   npx tsx bench/workspace/capture.ts [--quick]
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkspaceSnapshot } from '../../src/shared/workspace.js';
import { captureWorkspace, captureWorkspaceWithPatch } from '../../src/core/workspace/capture.js';
import { listDiffFiles } from '../../src/core/workspace/file-diff.js';
import { gitEnv } from '../../src/core/workspace/git.js';
import { verifyWorkspace } from '../../src/core/workspace/verify.js';
import { printTable, summarize } from '../stats.js';

const QUICK = process.argv.includes('--quick');
const FILES = 1_000;
const BIG_FILES = 10;
const BIG_FILE_BYTES = 10 * 1024 * 1024;
const DATA = join(import.meta.dirname, '..', '.data', 'workspace');

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: gitEnv(), stdio: 'ignore' });
}

function makeRepo(name: string): string {
  const root = join(DATA, name);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Bench');
  git(root, 'config', 'user.email', 'bench@baton.invalid');
  return root;
}

async function time(runs: number, warmup: number, work: () => Promise<unknown> | unknown): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** The bare git pipeline the capture is built on: copy the index, add everything, raw list, binary diff to nowhere. */
async function bareGit(root: string): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-index-'));
  const env = gitEnv({ GIT_INDEX_FILE: join(dir, 'index') });
  try {
    copyFileSync(join(root, '.git', 'index'), env.GIT_INDEX_FILE!);
    execFileSync('git', ['add', '--all'], { cwd: root, env, stdio: 'ignore' });
    execFileSync('git', ['diff', '--cached', '-z', '--raw', '--numstat', 'HEAD'], { cwd: root, env, stdio: 'ignore', maxBuffer: 1 << 30 });
    await new Promise<void>((resolve, reject) => {
      const child = spawn('git', ['diff', '--cached', '--binary', 'HEAD'], { cwd: root, env, stdio: ['ignore', 'ignore', 'ignore'] });
      child.on('error', reject);
      child.on('close', () => resolve());
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Row = Record<string, string | number>;
function row(scenario: string, name: string, samples: number[], baseline: number): Row {
  const s = summarize(samples);
  return { scenario, case: name, runs: s.n, 'median ms': s.p50, 'p95 ms': s.p95, 'median × baseline': s.p50 / baseline };
}

async function manyFiles(rows: Row[]): Promise<WorkspaceSnapshot> {
  const root = makeRepo('many');
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${i % 20}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `file-${i}.ts`), `export const value${i} = ${i};\n`.repeat(30));
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  for (let i = 0; i < FILES; i++) writeFileSync(join(root, `pkg${i % 20}`, `file-${i}.ts`), `export const value${i} = ${i + 1};\n`.repeat(31));
  const runs = QUICK ? 3 : 10;
  const status = await time(runs, 2, () => execFileSync('git', ['status', '--porcelain=v2', '-z', '--untracked-files=all'], { cwd: root, env: gitEnv(), stdio: 'ignore' }));
  const base = summarize(status).p50;
  rows.push(row('1,000 changed files', 'baseline: git status --porcelain=v2', status, base));
  rows.push(row('1,000 changed files', 'bare git: add to temp index + raw + binary diff', await time(runs, 2, () => bareGit(root)), base));
  let snapshot: WorkspaceSnapshot | null = null;
  rows.push(row('1,000 changed files', 'captureWorkspaceWithPatch', await time(runs, 2, async () => (snapshot = (await captureWorkspaceWithPatch(root)).snapshot)), base));
  rows.push(row('1,000 changed files', 'captureWorkspace {patch: false}', await time(runs, 2, () => captureWorkspace(root, { patch: false })), base));
  rows.push(row('1,000 changed files', 'verifyWorkspace (complete)', await time(runs, 2, () => verifyWorkspace(snapshot!, root)), base));
  if (snapshot!.git!.files.length !== FILES) throw new Error(`expected ${FILES} files, captured ${snapshot!.git!.files.length}`);
  return snapshot!;
}

async function bigPatch(rows: Row[]): Promise<void> {
  const root = makeRepo('big');
  writeFileSync(join(root, 'README.md'), 'big\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  const line = 'const generated = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopq";\n';
  const content = line.repeat(Math.ceil(BIG_FILE_BYTES / line.length));
  for (let i = 0; i < BIG_FILES; i++) writeFileSync(join(root, `generated-${i}.js`), content.replace(/generated/g, `generated${i}`));
  const runs = QUICK ? 2 : 5;
  const bare = await time(runs, 1, () => bareGit(root));
  const base = summarize(bare).p50;
  rows.push(row('100 MB patch', 'baseline: bare git (add + raw + binary diff)', bare, base));
  let size = 0;
  rows.push(
    row('100 MB patch', 'captureWorkspaceWithPatch (hashed, not stored)', await time(runs, 1, async () => {
      const captured = await captureWorkspaceWithPatch(root);
      size = captured.snapshot.git!.patch!.size;
      if (captured.patchBytes !== null) throw new Error('a 100 MB patch must not be kept');
    }), base),
  );
  rows.push(row('100 MB patch', 'captureWorkspaceWithPatch (kept in memory, cap 256 MB)', await time(runs, 1, () => captureWorkspaceWithPatch(root, { patchMaxBytes: 256 * 1024 * 1024 })), base));
  console.log(`100 MB case: patch of ${(size / 1024 / 1024).toFixed(1)} MiB from ${BIG_FILES} files of ${BIG_FILE_BYTES / 1024 / 1024} MiB`);
}

async function fileList(rows: Row[], snapshot: WorkspaceSnapshot): Promise<void> {
  const path = join(DATA, 'session.json');
  writeFileSync(path, JSON.stringify({ id: 'bench', workspace: snapshot }, null, 2));
  const runs = QUICK ? 50 : 300;
  const parseOnly = await time(runs, 20, () => JSON.parse(readFileSync(path, 'utf8')));
  const base = summarize(parseOnly).p50;
  rows.push(row('file list, 1,000 files', 'baseline: read + JSON.parse session.json', parseOnly, base));
  rows.push(
    row('file list, 1,000 files', 'read + parse + zod + listDiffFiles', await time(runs, 20, () => {
      const doc = JSON.parse(readFileSync(path, 'utf8')) as { workspace: unknown };
      const list = listDiffFiles(WorkspaceSnapshot.parse(doc.workspace));
      if (list.total !== FILES) throw new Error('wrong count');
    }), base),
  );
  console.log(`session.json with 1,000 files: ${(readFileSync(path).length / 1024).toFixed(0)} KiB`);
}

async function main(): Promise<void> {
  mkdirSync(DATA, { recursive: true });
  try {
    const rows: Row[] = [];
    const snapshot = await manyFiles(rows);
    await fileList(rows, snapshot);
    await bigPatch(rows);
    printTable(rows);
  } finally {
    rmSync(DATA, { recursive: true, force: true });
  }
}

await main();
