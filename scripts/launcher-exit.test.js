// bin/baton.js ends `handoff` and `show` with process.exit once their output has left the process
// (bin/exit-when-flushed.js, issue 20): nothing they printed may be lost to the early exit, even
// when the reader is slower than the writer and most of the output is still queued in Node.
// Needs the build (scripts/test.sh builds before the unit tests).
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'baton.js');
/** Enough output (~6 MB) that most of it is queued in Node when the show's main resolves. */
const MESSAGES = 20_000;
let dir;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'baton-show.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'baton-launcher-exit-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the launcher with stdout into a reader that pauses after every read; resolves with what the reader got and the exit code. */
function throughSlowReader(args, env) {
  const reader = spawn(process.execPath, ['-e', "const h=require('crypto').createHash('sha256');let n=0;process.stdin.on('data',d=>{h.update(d);n+=d.length;process.stdin.pause();setTimeout(()=>process.stdin.resume(),1)});process.stdin.on('end',()=>process.stdout.write(h.digest('hex')+' '+n))"], { stdio: ['pipe', 'pipe', 'inherit'] });
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', reader.stdin, 'pipe'] });
  // The child holds the pipe's write end now; the reader sees its end when the child's copy closes.
  reader.stdin.destroy();
  let got = '';
  let stderr = '';
  reader.stdout.on('data', (d) => void (got += d));
  child.stderr.on('data', (d) => void (stderr += d));
  return Promise.all([
    new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    new Promise((resolve) => reader.on('exit', () => resolve(got))),
  ]).then(([code, read]) => ({ code, read, stderr }));
}

describe('bin/baton.js exits handoff and show once their output is flushed', () => {
  it('a big `show --all --json` into a slow reader arrives whole, and so does the handoff before it', async () => {
    const env = { ...process.env, BATON_HOME: join(dir, 'home'), XDG_RUNTIME_DIR: join(dir, 'run') };
    const messages = join(dir, 'm.jsonl');
    writeFileSync(messages, Array.from({ length: MESSAGES }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} ${'x'.repeat(200)}` })).join('\n') + '\n');
    // No receiver here: the handoff saves the session and says so (a non-zero exit), in one JSON line.
    const handoffOut = await new Promise((resolve) =>
      execFile(process.execPath, [BIN, 'handoff', '--cwd', dir, '--title', 'exit test', '--messages', messages, '--no-launch', '--json', '--timeout', '0'], { env }, (_error, out) => resolve(out)),
    );
    const handoff = JSON.parse(handoffOut);
    const [id] = readdirSync(join(dir, 'home', 'sessions'));
    expect(handoff).toMatchObject({ version: 1, command: 'handoff', sessionId: id });

    const show = await throughSlowReader(['show', id, '--all', '--json'], env);
    expect(show.stderr).toBe('');
    expect(show.code).toBe(0);
    // The same bytes as the whole CLI prints into a buffer (its process ends naturally).
    const whole = await new Promise((resolve, reject) =>
      execFile(process.execPath, ['-e', `require(${JSON.stringify(join(ROOT, 'bin', 'load-cli.js'))}).compileCli().cli.main(['node', 'baton', 'show', ${JSON.stringify(id)}, '--all', '--json'])`], { env, maxBuffer: 256 * 1024 * 1024, encoding: 'buffer' }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    const [sha, bytes] = show.read.split(' ');
    expect(Number(bytes)).toBe(whole.length);
    expect(Number(bytes)).toBeGreaterThan(MESSAGES * 200);
    expect(sha).toBe(createHash('sha256').update(whole).digest('hex'));
    const value = JSON.parse(whole.toString('utf8'));
    expect(value.messages).toHaveLength(MESSAGES);
  }, 120_000);
});
