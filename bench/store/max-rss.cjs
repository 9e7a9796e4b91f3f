// Preloaded into a benchmarked child (NODE_OPTIONS=--require): writes its peak RSS (KiB) and CPU
// time (user + system, µs) on exit. On a shared machine CPU time moves far less than wall time.
// Peak RSS is VmHWM of this process's own memory: getrusage's maxRSS keeps the high-water mark
// of the forked copy of the parent from before exec, so a child of a 100 MB benchmark never
// showed less than 100 MB.
const { readFileSync, writeFileSync } = require('node:fs');
process.on('exit', () => {
  const u = process.resourceUsage();
  const hwm = /^VmHWM:\s*(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (process.env.BATON_BENCH_RSS_FILE) writeFileSync(process.env.BATON_BENCH_RSS_FILE, `${hwm ? Number(hwm[1]) : u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`);
});
