#!/usr/bin/env node
// The `baton` command. Runs the bundled CLI (npm run build:node writes dist/cli/baton.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/baton.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('baton: the CLI is not built yet. Run: npm run build\n');
  process.exit(1);
}
await import(entry.href);
