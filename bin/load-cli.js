// Loads the bundled CLI through vm.Script with its V8 code cache (see scripts/build-cli.js).
// A cache from another Node/V8 build is rejected by V8 and the bundle simply compiles as usual.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE = join(ROOT, 'dist', 'cli', 'baton.cjs');
export const CLI_CACHE = `${CLI_BUNDLE}.cache`;

export function compileCli() {
  const source = readFileSync(CLI_BUNDLE, 'utf8');
  const cachedData = existsSync(CLI_CACHE) ? readFileSync(CLI_CACHE) : undefined;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: CLI_BUNDLE, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(CLI_BUNDLE), module, CLI_BUNDLE, dirname(CLI_BUNDLE));
  return { script, cli: module.exports };
}

export const FAST_LIST_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-list.cjs');

export function fastListIsBuilt() {
  return existsSync(FAST_LIST_BUNDLE);
}

export function loadFastList() {
  return createRequire(import.meta.url)(FAST_LIST_BUNDLE);
}

export function cliIsBuilt() {
  return existsSync(CLI_BUNDLE);
}
