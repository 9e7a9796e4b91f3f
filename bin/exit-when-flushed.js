// Ends a command's process as soon as its output has left it (issue 20, "CLI start-up").
// A natural exit waits for the event loop to empty and then frees the environment and V8's heap;
// `process.exit` skips that teardown (measured: bench/README.md, "Issue 20, seventh sitting"). Only
// for commands whose every durable step is awaited before their main resolves (`handoff`: the
// session and its event line are fsynced, the store closed; `show`: read-only).
// CommonJS (bin/package.json), like the launcher.
'use strict';

/** The commands the launcher ends with exitWhenFlushed once their main has resolved. */
const EXIT_WHEN_FLUSHED = new Set(['handoff', 'show']);

/**
 * Exits with process.exitCode once stdout and stderr hold nothing queued: a write's callback runs
 * after every write before it has been handed to the kernel (or failed: a reader that went away
 * does not keep the process).
 */
function exitWhenFlushed() {
  const streams = [process.stdout, process.stderr];
  let pending = streams.length;
  const settled = () => {
    if (--pending === 0) process.exit();
  };
  for (const stream of streams) {
    if (stream.destroyed || stream.writableLength === 0) settled();
    else stream.write('', settled);
  }
}

exports.EXIT_WHEN_FLUSHED = EXIT_WHEN_FLUSHED;
exports.exitWhenFlushed = exitWhenFlushed;
