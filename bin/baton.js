#!/usr/bin/env node
// The `baton` command: runs the bundled CLI (npm run build:node writes dist/cli/baton.cjs).
import { cliIsBuilt, compileCli, fastListIsBuilt, loadFastList } from './load-cli.js';

if (!cliIsBuilt()) {
  process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
  process.exit(1);
}
// `baton list --json` asks a running host through a small bundle first (issue 15); it declines
// (false) whenever the full CLI is needed.
if (process.argv[2] === 'list' && !process.argv.includes('--no-host') && fastListIsBuilt() && (await loadFastList().tryFastList(process.argv))) process.exit(0);
await compileCli().cli.main(process.argv);
