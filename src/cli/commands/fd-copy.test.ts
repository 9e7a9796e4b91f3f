import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FD_COPY = join(import.meta.dirname, 'fd-copy.ts');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-fd-copy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Child {
  stdout: Buffer;
  stderr: string;
  code: number | null;
}

/** Runs `body` (an ES module using fd-copy.ts as `c`) in a child whose fd 1 is a real pipe to us; reading starts after `holdMs`. */
function child(body: string, holdMs = 0, stopAfter?: number): Promise<Child> {
  const script = `import * as c from ${JSON.stringify(FD_COPY)}; import * as fs from 'node:fs'; ${body}`;
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let got = 0;
    proc.stdout.pause();
    setTimeout(() => proc.stdout.resume(), holdMs);
    proc.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      got += chunk.length;
      if (stopAfter !== undefined && got >= stopAfter) proc.stdout.destroy();
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', fail);
    proc.on('close', (code) => done({ stdout: Buffer.concat(out), stderr: err, code }));
  });
}

describe('copies to a descriptor with synchronous writes', () => {
  it('copies a 5.5 MB file through a pipe byte for byte, with the default chunk and with a 7-byte chunk on a small file', async () => {
    const big = randomBytes(5_500_000 + 17);
    const bigPath = join(dir, 'big.bin');
    await writeFile(bigPath, big);
    const copied = await child(`const fd = fs.openSync(${JSON.stringify(bigPath)}, 'r'); const n = c.copyFdSync(fd, 1); fs.writeSync(2, String(n));`, 200);
    expect(copied.code).toBe(0);
    expect(copied.stderr).toBe(String(big.length));
    expect(copied.stdout.equals(big)).toBe(true);

    const small = Buffer.from('{"version":1,"rows":["é","\\u2028",' + '"x",'.repeat(300) + '0]}\n');
    const smallPath = join(dir, 'small.json');
    await writeFile(smallPath, small);
    const chunked = await child(`const fd = fs.openSync(${JSON.stringify(smallPath)}, 'r'); c.copyFdSync(fd, 1, 7);`);
    expect(chunked.stdout.equals(small)).toBe(true);
    const empty = join(dir, 'empty');
    await writeFile(empty, '');
    const none = await child(`const fd = fs.openSync(${JSON.stringify(empty)}, 'r'); fs.writeSync(2, String(c.copyFdSync(fd, 1)));`);
    expect([none.stdout.length, none.stderr]).toEqual([0, '0']);
  }, 60_000);

  it('waits out EAGAIN on a non-blocking pipe that a slow reader leaves full, and loses no byte', async () => {
    // Creating process.stdout on a pipe makes fd 1 non-blocking (libuv); the reader holds off 300 ms.
    const bytes = 4 * 1024 * 1024;
    const slow = await child(`process.stdout; const b = Buffer.alloc(${bytes}, 97); const waits = c.writeAllSync(1, b); fs.writeSync(2, String(waits));`, 300);
    expect(slow.code).toBe(0);
    expect(slow.stdout.length).toBe(bytes);
    expect(slow.stdout.every((b) => b === 97)).toBe(true);
    expect(Number(slow.stderr)).toBeGreaterThan(0);
  }, 60_000);

  it('reports a reader that went away as EPIPE (readerLeft), not as another error', async () => {
    const gone = await child(`try { for (let i = 0; i < 64; i++) c.writeAllSync(1, Buffer.alloc(1 << 20, 98)); fs.writeSync(2, 'all written'); } catch (e) { fs.writeSync(2, c.readerLeft(e) ? 'reader left' : 'other ' + e.code); }`, 0, 1);
    expect(gone.stderr).toBe('reader left');
  }, 60_000);
});
