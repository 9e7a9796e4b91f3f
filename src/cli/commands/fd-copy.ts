import { readSync, writeSync } from 'node:fs';
import type { JsonSink } from '../../core/importers/list-json.js';

/**
 * Synchronous writes straight to a file descriptor (fd 1 for `baton list --json`, issue 15): the
 * hosted listing is 5.5 MB copied from the host's rendered file, and going through
 * process.stdout cost a stream, a fresh 1 MB Buffer and a thread-pool read per chunk (the
 * garbage collector's share alone was ~20 ms of a 127 ms profile). Here one buffer is reused and
 * each read and write is one system call.
 */

/** Bytes per read when a file is copied to a descriptor: large enough that system calls stay few. */
export const FD_COPY_CHUNK_BYTES = 1024 * 1024;
/** Pause before writing again when a non-blocking descriptor is full (EAGAIN): the reader drains meanwhile. */
export const FD_FULL_WAIT_MS = 1;
/** Consecutive EAGAINs before giving up: a reader that has stopped reading for this long (~60 s) is treated as gone. */
export const FD_FULL_MAX_WAITS = 60_000;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes every byte of `bytes` to `fd`, waiting out EAGAIN (a descriptor someone made non-blocking); how many waits it took. */
export function writeAllSync(fd: number, bytes: Uint8Array): number {
  let waits = 0;
  let total = 0;
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(fd, bytes, offset, bytes.length - offset);
      waits = 0;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > FD_FULL_MAX_WAITS) throw error;
      total++;
      Atomics.wait(pause, 0, 0, FD_FULL_WAIT_MS);
    }
  }
  return total;
}

/** Whether a write failed because the reader went away (`baton list --json | head`). */
export function readerLeft(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

/** Copies the file open at `from` (from its start to its end) to `to`; the number of bytes copied. */
export function copyFdSync(from: number, to: number, chunkBytes = FD_COPY_CHUNK_BYTES): number {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let position = 0;
  for (;;) {
    const read = readSync(from, buffer, 0, chunkBytes, position);
    if (read === 0) return position;
    writeAllSync(to, buffer.subarray(0, read));
    position += read;
  }
}

/**
 * A listing's JSON writer (writeListJson) writing straight to `fd`: each chunk is written before
 * write() returns, so the writer reuses its one chunk buffer and never waits for 'drain'. A warm
 * `baton list --json` without a host printed 5.5 MB through process.stdout, whose pipe stream
 * loads node:net and took a fresh 1 MiB chunk per write. A reader that left throws EPIPE (readerLeft).
 */
export function fdJsonSink(fd: number): JsonSink {
  return {
    write(chunk) {
      writeAllSync(fd, chunk);
      return true;
    },
    once: () => undefined,
    copies: true,
  };
}
