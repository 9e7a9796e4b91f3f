#!/usr/bin/env node
// The `baton` command: runs the bundled CLI (npm run build:node writes dist/cli/baton.cjs).
// CommonJS (bin/package.json) so Node starts without its ES-module loader.
'use strict';
// Issue 20: `baton handoff` streams a session of any size through short-lived objects. Its live
// heap stays at 15–25 MB; most of its RSS above that was V8's young generation doubling its
// semi-spaces (1 → 16 MiB) and the garbage promoted between collections. V8 reads this flag at
// each growth (--max-semi-space-size only when the isolate is made), so set here, before the
// bundle loads (by then they had grown to 4 MiB), it keeps them at 1 MiB. Figures: bench/README.md,
// "Issue 20, sixth sitting"; test: src/cli/handoff-young-generation.test.ts.
if (process.argv[2] === 'handoff') require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
const { cliIsBuilt, compileFor, fastListIsBuilt, loadFastList } = require('./load-cli.js');

async function run() {
  if (!cliIsBuilt()) {
    process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
    process.exit(1);
  }
  // `baton list --json` asks a running host through a small bundle first (issue 15); it declines
  // (false) whenever the full CLI is needed.
  if (process.argv[2] === 'list' && !process.argv.includes('--no-host') && fastListIsBuilt() && (await loadFastList().tryFastList(process.argv))) process.exit(0);
  await compileFor(process.argv).cli.main(process.argv);
}

run().catch((error) => {
  process.stderr.write(`baton: ${error && error.stack ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
