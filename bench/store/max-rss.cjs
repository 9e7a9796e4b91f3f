// Preloaded into a benchmarked child (NODE_OPTIONS=--require): writes its peak RSS (KiB) and CPU
// time (user + system, µs) on exit. On a shared machine CPU time moves far less than wall time.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  const u = process.resourceUsage();
  if (process.env.BATON_BENCH_RSS_FILE) writeFileSync(process.env.BATON_BENCH_RSS_FILE, `${u.maxRSS} ${u.userCPUTime + u.systemCPUTime}`);
});
