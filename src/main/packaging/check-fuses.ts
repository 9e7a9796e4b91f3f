// `npm run dist` runs this first: a package is not built when electron-builder.yml lacks a fuse
// Baton requires (REQUIRED_FUSES) or sets one the other way.
import { resolve } from 'node:path';
import { readBuilderConfig } from './builder-config.js';
import { fuseProblems } from './fuses.js';

const root = resolve(import.meta.dirname, '..', '..', '..');
const read = await readBuilderConfig(root);
if (!read.ok) {
  console.error(`${read.file}: ${read.error}`);
  process.exit(1);
}
const problems = fuseProblems(read.config.electronFuses);
for (const p of problems) console.error(`${read.file}: electronFuses.${p.fuse} must be ${p.expected} (found ${String(p.found)})`);
process.exit(problems.length === 0 ? 0 : 1);
