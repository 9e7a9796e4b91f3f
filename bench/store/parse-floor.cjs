// The floor of `baton show --all --json`: read a JSONL file in 1 MiB chunks and JSON.parse every line.
const { openSync, readSync, closeSync } = require('node:fs');
const fd = openSync(process.argv[2], 'r');
const chunk = Buffer.alloc(1024 * 1024);
let carry = '';
let lines = 0;
for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
  const parts = (carry + chunk.toString('utf8', 0, n)).split('\n');
  carry = parts.pop();
  for (const line of parts) if (line) (JSON.parse(line), lines++);
}
closeSync(fd);
if (lines === 0) process.exit(1);
