// Bench-only preload (picker-frame-gc.ts): like first-frame-cpu.cjs, at the first terminal write that
// shows a session row of the candidates corpus, writes this process's CPU (process.cpuUsage) and the
// garbage collections up to then (v8.GCProfiler: count and ms of scavenges and of the others) to
// $BATON_BENCH_FRAME_FILE as JSON. GCProfiler answers synchronously, which matters: the pty bench
// kills the program at that row. (--trace-gc would change V8's flags, and V8 then refuses the code
// cache the build made.) The profiler and node:v8 load first, the same for every build.
'use strict';
const { writeFileSync } = require('node:fs');
const { GCProfiler } = require('node:v8');
const { onFirstRowWrite } = require('./first-row-write.cjs');

const profiler = new GCProfiler();
profiler.start();
const file = process.env.BATON_BENCH_FRAME_FILE;
if (file) {
  onFirstRowWrite(() => {
    const cpu = process.cpuUsage();
    const { statistics } = profiler.stop();
    const scavenges = statistics.filter((s) => s.gcType === 'Scavenge');
    const others = statistics.filter((s) => s.gcType !== 'Scavenge');
    const ms = (list) => list.reduce((sum, s) => sum + s.cost, 0) / 1000;
    writeFileSync(file, JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, scavenges: scavenges.length, scavengeMs: ms(scavenges), otherGcs: others.length, otherGcMs: ms(others) }));
  });
}
