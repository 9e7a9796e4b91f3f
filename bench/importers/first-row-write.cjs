// Bench-only: calls `seen()` once, at the first write to this process's stdout that shows a session
// row of the candidates corpus (or a pty baseline's `ready`), before that write goes out. A tty's
// stream is a net.Socket (Duplex copies Writable's methods), so the hook goes on net.Socket.
// Shared by the first-frame preloads (first-frame-cpu.cjs, first-frame-gc.cjs).
'use strict';
const { Socket } = require('node:net');

const row = /Refactor handler \d+|Session \d+: make the build green|^ready$/;

exports.onFirstRowWrite = function onFirstRowWrite(seen) {
  const write = Socket.prototype.write;
  let done = false;
  Socket.prototype.write = function (chunk, ...rest) {
    if (!done && (this === process.stdout || this.fd === 1) && row.test(String(chunk).replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, ''))) {
      done = true;
      seen();
    }
    return write.call(this, chunk, ...rest);
  };
};
