import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WS_MAX_PAYLOAD_BYTES } from './browser-host.js';
import { frame, listSessions, rawUpgrade, sendAndAwaitClose } from './test-support/ws-frames.js';

/**
 * The real `baton serve` process: before the fix one bad frame raised "Unhandled 'error' event"
 * and the process exited, so every pending hook fell back to `ask`. Here each bad frame is sent
 * to the running process, which must still be alive and answering afterwards.
 */
const CLI = join(import.meta.dirname, '..', 'cli', 'run.ts');
let home: string;
let serve: ChildProcess;
let port: number;
let token: string;
let stderr = '';

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-serve-'));
  serve = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', '--json'], { env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: '' } });
  serve.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    serve.once('exit', (code) => reject(new Error(`baton serve exited (${code}): ${stderr}`)));
  });
  const started = JSON.parse(line) as { url: string; port: number };
  port = started.port;
  token = new URL(started.url).searchParams.get('token')!;
}, 60_000);

afterAll(async () => {
  if (serve.exitCode === null) {
    const exited = new Promise((resolve) => serve.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  await rm(home, { recursive: true, force: true });
});

describe('baton serve (a real process) under bad WebSocket frames', () => {
  it('stays up through an oversized, a non-UTF-8, an RSV1 and an unmasked frame, then answers', async () => {
    const bad = [
      frame(Buffer.alloc(WS_MAX_PAYLOAD_BYTES + 1, 0x61)),
      frame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
      frame(Buffer.from('{}'), { rsv1: true }),
      frame(Buffer.from('{}'), { masked: false }),
    ];
    const codes = [];
    for (const bytes of bad) codes.push(await sendAndAwaitClose(await rawUpgrade(port, token), bytes));
    expect(codes).toEqual([1009, 1007, 1002, 1002]);
    expect(serve.exitCode).toBeNull();
    expect(stderr).not.toMatch(/Unhandled 'error' event/);
    expect(await listSessions(port, token)).toEqual({ kind: 'response', id: 7, result: { ok: true, value: [] } });
  }, 60_000);

  it('stops gracefully when its terminal closes (SIGHUP): exit 0, its socket file removed', async () => {
    const socket = join(home, 'run', 'baton.sock');
    expect(existsSync(socket)).toBe(true);
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => serve.once('exit', (code, signal) => resolve([code, signal])));
    serve.kill('SIGHUP');
    expect(await exited).toEqual([0, null]);
    expect(existsSync(socket)).toBe(false);
  }, 30_000);
});
