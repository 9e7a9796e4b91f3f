import { writeSync } from 'node:fs';
import { FaultFs } from '../../../fs/fault-fs.js';
import { enableEncryption, rotateKey } from '../convert.js';

/**
 * Crash child for `baton encrypt --enable` and `baton key rotate`: runs MODE on ROOT and SIGKILLs
 * itself right after its K-th write/fsync/rename (odd variants tear that write first). K = 0: run
 * to the end and print the op count.
 */
const [root, killAtArg, variantArg, mode] = process.argv.slice(2);
const killAt = Number(killAtArg);
const fs = new FaultFs({
  tearWriteAt: Number(variantArg) % 2 === 1 ? killAt : undefined,
  afterOp: (n) => {
    if (n === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
if (mode === 'enable') await enableEncryption(root!, { fs });
else await rotateKey(root!, { fs });
writeSync(1, `${JSON.stringify({ kind: 'done', ops: fs.count })}\n`);
