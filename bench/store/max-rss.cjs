// Preloaded into a benchmarked child (NODE_OPTIONS=--require): writes its peak RSS (KiB) on exit.
const { writeFileSync } = require('node:fs');
process.on('exit', () => {
  if (process.env.BATON_BENCH_RSS_FILE) writeFileSync(process.env.BATON_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
