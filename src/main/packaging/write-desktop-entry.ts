// `npm run desktop-entry`: writes release/baton.desktop from electron-builder.yml and assets/.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readDesktopTemplate } from '../../core/desktop-entry.js';
import { readBuilderConfig } from './builder-config.js';
import { desktopEntryFromBuilder } from './desktop-entry-from-builder.js';

const root = resolve(import.meta.dirname, '..', '..', '..');
const read = await readBuilderConfig(root);
if (!read.ok) {
  console.error(`${read.file}: ${read.error}`);
  process.exit(1);
}
const entry = desktopEntryFromBuilder(read.config, await readDesktopTemplate(), process.argv[2]);
if (!entry.ok) {
  console.error(`${read.file}: ${entry.error}`);
  process.exit(1);
}
const out = join(root, read.config.directories?.output ?? 'release', 'baton.desktop');
await mkdir(join(out, '..'), { recursive: true });
await writeFile(out, entry.text);
console.log(out);
