import { openSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PASSPHRASE_BYTES } from '../core/store/at-rest/passphrase.js';
import { readPassphrase } from './passphrase-input.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'baton-passphrase-input-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A real descriptor onto a file holding `content` (readPassphrase closes it). */
function fdWith(content: string | Buffer): string {
  const path = join(dir, `p-${Math.random()}`);
  writeFileSync(path, content);
  return String(openSync(path, 'r'));
}

describe('readPassphrase from BATON_PASSPHRASE_FD', () => {
  it('reads the first line, without its LF or CRLF, and nothing after it', async () => {
    expect((await readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('open sesame\nsecond line\n') })).toString()).toBe('open sesame');
    expect((await readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('crlf pass\r\n') })).toString()).toBe('crlf pass');
    expect((await readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('no newline at all') })).toString()).toBe('no newline at all');
    expect((await readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('ünïcödé pass\n') })).toString('utf8')).toBe('ünïcödé pass');
  });

  it('refuses an empty passphrase, one over the limit, and a descriptor that is not a number of 3 or more', async () => {
    await expect(readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('') })).rejects.toThrow(/no passphrase was given on descriptor/);
    await expect(readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('\nlater') })).rejects.toThrow(/no passphrase/);
    await expect(readPassphrase('', { BATON_PASSPHRASE_FD: fdWith('x'.repeat(MAX_PASSPHRASE_BYTES + 1)) })).rejects.toThrow(/longer than 1024 bytes/);
    for (const bad of ['0', '2', 'abc', '-1', '3; rm -rf', '99999']) await expect(readPassphrase('', { BATON_PASSPHRASE_FD: bad })).rejects.toThrow(/BATON_PASSPHRASE_FD must be a descriptor number/);
  });
});
