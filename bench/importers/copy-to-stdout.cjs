'use strict';
/**
 * The pipe's floor for warm-list.ts --floor: a Node process that only copies a file to its stdout,
 * as the CLI copies a host's rendered listing (src/cli/commands/fd-copy.ts copyFdSync: 1 MiB
 * positional reads, synchronous writes to fd 1, no process.stdout). Whatever a listing of those
 * bytes costs over `node -e ""` beyond this row is the listing's; this row is the machine's pipe.
 *
 *   node bench/importers/copy-to-stdout.cjs FILE
 */
const { closeSync, openSync, readSync, writeSync } = require('node:fs');

const CHUNK_BYTES = 1024 * 1024;
const fd = openSync(process.argv[2], 'r');
const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
for (let position = 0; ; ) {
  const read = readSync(fd, buffer, 0, CHUNK_BYTES, position);
  if (read === 0) break;
  for (let written = 0; written < read; ) written += writeSync(1, buffer, written, read - written);
  position += read;
}
closeSync(fd);
