#!/usr/bin/env node
// The `baton` command: runs the bundled CLI (npm run build:node writes dist/cli/baton.cjs).
import { cliIsBuilt, compileCli } from './load-cli.js';

if (!cliIsBuilt()) {
  process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
  process.exit(1);
}
await compileCli().cli.main(process.argv);
