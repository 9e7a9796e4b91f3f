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
  return compileBundle(CLI_BUNDLE, CLI_CACHE);
}

/** Runs a CommonJS bundle with the V8 code cache beside it (when there is one). */
function compileBundle(file, cacheFile) {
  const source = readFileSync(file, 'utf8');
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined;
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return { script, cli: module.exports };
}

export const FAST_LIST_BUNDLE = join(ROOT, 'dist', 'cli', 'baton-list.cjs');

export function fastListIsBuilt() {
  return existsSync(FAST_LIST_BUNDLE);
}

export const FAST_LIST_CACHE = `${FAST_LIST_BUNDLE}.cache`;

/** The fast-list bundle, compiled with its code cache (written by scripts/build-cli.js): its start-up is most of a hosted listing. */
export function compileFastList() {
  return compileBundle(FAST_LIST_BUNDLE, FAST_LIST_CACHE);
}

export function loadFastList() {
  return compileFastList().cli;
}

export function cliIsBuilt() {
  return existsSync(CLI_BUNDLE);
}
