import { describe, expect, it } from 'vitest';
import { listThenPatch } from './patch.js';

/** Feeds `output` in pieces of `size` bytes; answers the list (null when refused) and the patch's bytes. */
function split(output: Buffer, size: number): { list: Buffer | null; patch: Buffer } {
  const patch: Buffer[] = [];
  const splitter = listThenPatch((chunk) => patch.push(chunk));
  for (let at = 0; at < output.length; at += size) splitter.add(output.subarray(at, at + size));
  return { list: splitter.list(), patch: Buffer.concat(patch) };
}

const RAW = ':100644 100644 1111111 2222222 M\0a.txt\0:100644 100644 3333333 4444444 R087\0old name\0new name\0';
const NUMSTAT = '1\t1\ta.txt\0' + '2\t0\t\0old name\0new name\0';
const PATCH = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-\0x\n+\0\0y\n';

describe('listThenPatch: `git diff -z --raw --numstat --binary` split into its list and its patch', () => {
  const sizes = [1, 2, 3, 5, 8, 64, 4096];

  it.each(sizes)('in pieces of %i bytes: the list up to the separator, the patch after it, NULs in the patch kept', (size) => {
    const out = split(Buffer.from(`${RAW}${NUMSTAT}\0${PATCH}`, 'binary'), size);
    expect(out.list?.toString('binary')).toBe(RAW + NUMSTAT);
    expect(out.patch.toString('binary')).toBe(PATCH);
  });

  it.each(sizes)('in pieces of %i bytes: a list ending in a rename, then an empty patch', (size) => {
    const out = split(Buffer.from(`${RAW}${NUMSTAT}\0`, 'binary'), size);
    expect(out.list?.toString('binary')).toBe(RAW + NUMSTAT);
    expect(out.patch.length).toBe(0);
  });

  it('empty pieces anywhere change nothing', () => {
    const patch: Buffer[] = [];
    const splitter = listThenPatch((chunk) => patch.push(chunk));
    const empty = Buffer.alloc(0);
    for (const piece of [empty, RAW, empty, NUMSTAT, empty, '\0', empty, PATCH, empty]) splitter.add(typeof piece === 'string' ? Buffer.from(piece, 'binary') : piece);
    expect(splitter.list()?.toString('binary')).toBe(RAW + NUMSTAT);
    expect(Buffer.concat(patch).toString('binary')).toBe(PATCH);
  });

  it('an empty diff: an empty list and an empty patch', () => {
    expect(split(Buffer.alloc(0), 1)).toEqual({ list: Buffer.alloc(0), patch: Buffer.alloc(0) });
  });

  it.each([
    ['a list without its separator', `${RAW}${NUMSTAT}`],
    ['a list cut mid-record', RAW.slice(0, 20)],
    ['a patch with no list before it', PATCH.replaceAll('\0', '')],
    ['one NUL', '\0'],
    ['a NUL first, then what would pass for a separator', '\0\0diff --git\n'],
  ])('%s is refused (null), never guessed', (_name, text) => {
    for (const size of sizes) expect(split(Buffer.from(text, 'binary'), size).list).toBeNull();
  });

  it('a separator at a piece boundary: the piece that starts with it hands over only what follows', () => {
    const patch: Buffer[] = [];
    const splitter = listThenPatch((chunk) => patch.push(chunk));
    splitter.add(Buffer.from('1\t1\ta.txt\0', 'binary'));
    splitter.add(Buffer.from('\0diff', 'binary'));
    splitter.add(Buffer.from(' --git\n', 'binary'));
    expect(splitter.list()?.toString('binary')).toBe('1\t1\ta.txt\0');
    expect(Buffer.concat(patch).toString('binary')).toBe('diff --git\n');
  });
});
