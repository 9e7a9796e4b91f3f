// Bench-only preload (pickers.ts --frame-cpu=1): at the first terminal write that shows a session
// row of the candidates corpus, writes this process's CPU time (user + system, µs, from
// process.cpuUsage) and performance.now() to $BATON_BENCH_FRAME_FILE. µs resolution where /proc's
// ticks are 10 ms. Loaded with --require before the program under test, the same for every build.
'use strict';
const { writeFileSync } = require('node:fs');
const { onFirstRowWrite } = require('./first-row-write.cjs');

const file = process.env.BATON_BENCH_FRAME_FILE;
if (file) {
  onFirstRowWrite(() => {
    const cpu = process.cpuUsage();
    writeFileSync(file, `${cpu.user + cpu.system} ${performance.now().toFixed(2)}\n`);
  });
}
