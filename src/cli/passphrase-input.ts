import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { MAX_PASSPHRASE_BYTES } from '../core/store/at-rest/passphrase.js';

/**
 * Where a passphrase comes from, never argv (it would show in `ps` and the shell history):
 * - BATON_PASSPHRASE_FD=n: the first line read from descriptor n (scripts, tests);
 * - a terminal on stdin: typed without echo, after a prompt on stderr;
 * - otherwise stdin: its first line.
 */
export class PassphraseInputError extends Error {
  readonly code = 'BAD_PASSPHRASE';
}

export async function readPassphrase(prompt: string, env: NodeJS.ProcessEnv = process.env): Promise<Buffer> {
  const fdText = env.BATON_PASSPHRASE_FD;
  if (fdText !== undefined && fdText !== '') {
    if (!/^\d{1,4}$/.test(fdText) || Number(fdText) < 3) throw new PassphraseInputError(`BATON_PASSPHRASE_FD must be a descriptor number of 3 or more, got "${fdText.slice(0, 20)}"`);
    return firstLine(createReadStream('', { fd: Number(fdText), autoClose: true }), `descriptor ${fdText}`);
  }
  if (process.stdin.isTTY) return typed(prompt);
  return firstLine(process.stdin, 'stdin');
}

/** The first line of a stream (without its line ending), bounded; an empty one is refused. */
async function firstLine(stream: Readable, where: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    const nl = bytes.indexOf(0x0a);
    chunks.push(nl === -1 ? bytes : bytes.subarray(0, nl));
    size += bytes.length;
    if (nl !== -1 || size > MAX_PASSPHRASE_BYTES) break;
  }
  stream.destroy();
  return checked(stripCr(Buffer.concat(chunks)), where);
}

function stripCr(bytes: Buffer): Buffer {
  return bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes;
}

function checked(passphrase: Buffer, where: string): Buffer {
  if (passphrase.length === 0) throw new PassphraseInputError(`no passphrase was given on ${where}`);
  if (passphrase.length > MAX_PASSPHRASE_BYTES) throw new PassphraseInputError(`the passphrase on ${where} is longer than ${MAX_PASSPHRASE_BYTES} bytes`);
  return passphrase;
}

/** Raw mode: each key arrives as typed and nothing is echoed; Enter ends, Ctrl+C aborts, Backspace erases. */
function typed(prompt: string): Promise<Buffer> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    const bytes: number[] = [];
    const done = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else {
        try {
          resolve(checked(Buffer.from(bytes), 'the terminal'));
        } catch (e) {
          reject(e as Error);
        }
      }
    };
    const onData = (chunk: Buffer) => {
      for (const b of chunk) {
        if (b === 0x0d || b === 0x0a) return done();
        if (b === 0x03) return done(new PassphraseInputError('interrupted'));
        if (b === 0x7f || b === 0x08) bytes.pop();
        else if (bytes.length <= MAX_PASSPHRASE_BYTES) bytes.push(b);
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
