// The floor of `baton show --all --json`: read a JSONL file in 1 MiB chunks and JSON.parse every line.
// A log encrypted at rest (issue 17): BATON_BENCH_KEY=<data key, hex> and the session id as the
// second argument; each line is then parsed ({"s","k","e","crc"}), its ciphertext base64-decoded
// and opened with one AES-256-GCM decipher (associated data: session id + seq, the tag checked),
// and the plaintext record JSON.parsed: what the product must do per record, and nothing more.
const { openSync, readSync, closeSync } = require('node:fs');
const fd = openSync(process.argv[2], 'r');
const sessionId = process.argv[3];
const key = process.env.BATON_BENCH_KEY ? Buffer.from(process.env.BATON_BENCH_KEY, 'hex') : undefined;
const { createDecipheriv } = key ? require('node:crypto') : {};
function openRecord(line) {
  const { s, e } = JSON.parse(line);
  const sealed = Buffer.from(e, 'base64');
  const d = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  d.setAAD(Buffer.from(`baton-record-v1\0${sessionId}\0${s}`, 'utf8'));
  d.setAuthTag(sealed.subarray(sealed.length - 16));
  const plain = d.update(sealed.subarray(12, sealed.length - 16));
  d.final();
  return JSON.parse(plain.toString('utf8'));
}
const chunk = Buffer.alloc(1024 * 1024);
let carry = '';
let lines = 0;
for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) {
  const parts = (carry + chunk.toString('utf8', 0, n)).split('\n');
  carry = parts.pop();
  for (const line of parts) if (line) (key ? openRecord(line) : JSON.parse(line), lines++);
}
closeSync(fd);
if (lines === 0) process.exit(1);
