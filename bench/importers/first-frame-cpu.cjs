// Bench-only preload (pickers.ts --frame-cpu=1): at the first terminal write that shows a session
// row of the candidates corpus, writes this process's CPU time (user + system, µs, from
// process.cpuUsage) and performance.now() to $BATON_BENCH_FRAME_FILE. µs resolution where /proc's
// ticks are 10 ms. A tty's stream is a net.Socket (Duplex copies Writable's methods, so the hook
// goes on net.Socket). Loaded with --require before the program under test, the same for every build.
'use strict';
const { Socket } = require('node:net');
const { writeFileSync } = require('node:fs');

const file = process.env.BATON_BENCH_FRAME_FILE;
// A session row of the corpus, or the pty baseline's `ready`.
const row = /Refactor handler \d+|Session \d+: make the build green|^ready$/;
const write = Socket.prototype.write;
let seen = false;
Socket.prototype.write = function (chunk, ...rest) {
  if (!seen && file && (this === process.stdout || this.fd === 1) && row.test(String(chunk).replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, ''))) {
    seen = true;
    const cpu = process.cpuUsage();
    writeFileSync(file, `${cpu.user + cpu.system} ${performance.now().toFixed(2)}\n`);
  }
  return write.call(this, chunk, ...rest);
};
