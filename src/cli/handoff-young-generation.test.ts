import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 20: bin/baton.js keeps a handoff's young generation at its starting size (V8's
// --semi-space-growth-factor=1, set before the bundle loads). These run the built launcher on a
// real messages file and read V8's own figure for the new space from inside the process.
const REPO = resolve(import.meta.dirname, '..', '..');
const LAUNCHER = join(REPO, 'bin', 'baton.js');
const MESSAGES = 30_000;
/** Where the launcher stops an import's young generation growing (bin/load-cli.js). */
const { IMPORT_NEW_SPACE_MAX_BYTES } = createRequire(import.meta.url)('../../bin/load-cli.js') as { IMPORT_NEW_SPACE_MAX_BYTES: number };
const CLAUDE_FIXTURE = resolve(REPO, '..', 'shared', 'fixtures', 'agent-logs', 'claude-code-session.sample.jsonl');
/** Both semi-spaces at V8's starting size (1 MiB each on 64-bit): what the flag keeps. */
const STARTING_NEW_SPACE_BYTES = 2 * 1024 * 1024;

// Preloaded into the child: the largest new space seen (sampled, and at exit) goes to a file.
const HOOK = `
const v8 = require('node:v8');
let max = 0;
const sample = () => { const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); if (s && s.space_size > max) max = s.space_size; };
setInterval(sample, 5).unref();
process.on('exit', () => { sample(); require('node:fs').writeFileSync(process.env.NEW_SPACE_FILE, String(max)); });
`;

let root = '';

beforeAll(async () => {
  if (!existsSync(join(REPO, 'dist', 'cli', 'baton-handoff.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
  root = await mkdtemp(join(tmpdir(), 'baton-young-gen-'));
  await mkdir(join(root, 'cwd'));
  await writeFile(join(root, 'hook.cjs'), HOOK);
  const lines: string[] = [];
  for (let i = 0; i < MESSAGES; i++) lines.push(JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(9)}` }));
  await writeFile(join(root, 'conv.jsonl'), `${lines.join('\n')}\n`);
});

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Runs `baton handoff --dry-run` of the messages file through `entry` (node arguments); the largest new space seen. */
async function newSpaceOf(entry: string[], name: string, command = ['handoff', '--cwd', join(root, 'cwd'), '--title', 't', '--messages', join(root, 'conv.jsonl'), '--dry-run', '--json']): Promise<{ newSpace: number; out: string }> {
  const file = join(root, `${name}.new-space`);
  const home = join(root, `home-${name}`);
  const args = [...entry, ...command];
  const out = await new Promise<string>((done, fail) =>
    execFile(process.execPath, args, { env: { ...process.env, BATON_HOME: home, NODE_OPTIONS: `--require ${join(root, 'hook.cjs')}`, NEW_SPACE_FILE: file }, maxBuffer: 1 << 26 }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(stdout),
    ),
  );
  return { newSpace: Number(await readFile(file, 'utf8')), out };
}

describe('baton handoff: the young generation (issue 20)', () => {
  it('stays at its starting size through a handoff from the launcher, and grows without the flag', async () => {
    const launched = await newSpaceOf([LAUNCHER], 'launcher');
    expect(JSON.parse(launched.out.trim().split('\n').at(-1)!)).toMatchObject({ category: 'accepted' });
    expect(launched.newSpace).toBeGreaterThan(0);
    expect(launched.newSpace).toBeLessThanOrEqual(STARTING_NEW_SPACE_BYTES);
    // The same bundle and the same work, loaded without the launcher's flag: V8 doubles the semi-spaces.
    const loader = `require(${JSON.stringify(join(REPO, 'bin', 'load-cli.js'))}).compileHandoff().cli.main(['node', 'baton', ...process.argv.slice(1)]);`;
    const unbounded = await newSpaceOf(['-e', loader, '--'], 'unbounded');
    expect(JSON.parse(unbounded.out.trim().split('\n').at(-1)!)).toMatchObject({ category: 'accepted' });
    expect(unbounded.newSpace).toBeGreaterThan(STARTING_NEW_SPACE_BYTES);
  }, 120_000);

  it('an import (--from) lets it grow past the starting size, then holds it near the launcher\'s cap', async () => {
    // A Claude Code transcript of the shared fixture's lines repeated, each with its own uuid chain, ~12 MB.
    const templates = (await readFile(CLAUDE_FIXTURE, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const lines: string[] = [];
    let parent: string | null = null;
    for (let i = 0; i < 8_000; i++) {
      const line = structuredClone(templates[i % templates.length]!);
      line.uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      if ('parentUuid' in line) line.parentUuid = parent;
      parent = line.uuid as string;
      const message = line.message as { id?: string; content?: unknown } | undefined;
      if (message?.id) message.id = `msg_young_${i}`;
      if (message && typeof message.content === 'string') message.content = `${message.content} (${i}) ${'lorem ipsum dolor sit amet '.repeat(40)}`;
      lines.push(JSON.stringify(line));
    }
    const transcript = join(root, 'transcript.jsonl');
    await writeFile(transcript, `${lines.join('\n')}\n`);
    const importArgs = ['handoff', '--from', 'claude', '--session', transcript, '--dry-run', '--no-launch', '--json'];
    const launched = await newSpaceOf([LAUNCHER], 'import-launcher', importArgs);
    expect(JSON.parse(launched.out.trim().split('\n').at(-1)!)).toMatchObject({ category: 'accepted' });
    expect(launched.newSpace).toBeGreaterThan(STARTING_NEW_SPACE_BYTES);
    // The observer that stops the growth runs after a collection: one doubling past the cap at most.
    expect(launched.newSpace).toBeLessThanOrEqual(2 * IMPORT_NEW_SPACE_MAX_BYTES);
    const loader = `require(${JSON.stringify(join(REPO, 'bin', 'load-cli.js'))}).compileHandoff().cli.main(['node', 'baton', ...process.argv.slice(1)]);`;
    const unbounded = await newSpaceOf(['-e', loader, '--'], 'import-unbounded', importArgs);
    expect(unbounded.newSpace).toBeGreaterThan(2 * IMPORT_NEW_SPACE_MAX_BYTES);
  }, 120_000);

  it('runs the handoff bundle from its code cache: the flag is set after V8 has accepted the cache', async () => {
    // A cache made under other V8 flags is refused, and the 1.4 MB bundle recompiles (~90 ms a handoff).
    const seen = join(root, 'cache-verdicts.json');
    const hook = join(root, 'cache-hook.cjs');
    await writeFile(
      hook,
      `const vm = require('node:vm'); const Script = vm.Script; const verdicts = [];
vm.Script = class extends Script { constructor(source, options) { super(source, options); if (options && options.cachedData) verdicts.push(this.cachedDataRejected); } };
process.on('exit', () => require('node:fs').writeFileSync(process.env.CACHE_VERDICTS, JSON.stringify(verdicts)));`,
    );
    await new Promise<void>((done, fail) =>
      execFile(process.execPath, [LAUNCHER, 'handoff', '--help'], { env: { ...process.env, NODE_OPTIONS: `--require ${hook}`, CACHE_VERDICTS: seen } }, (error) => (error ? fail(error) : done())),
    );
    // Two bundles: the hosted handoff's (dist/cli/baton-handoff-fast.cjs), which declines `--help`,
    // then the handoff bundle; V8 accepts both caches.
    expect(JSON.parse(await readFile(seen, 'utf8'))).toEqual([false, false]);
  });
});
