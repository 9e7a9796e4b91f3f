#!/usr/bin/env node
// The `baton` command. Runs the compiled CLI (npm run build:node writes dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main(process.argv);
