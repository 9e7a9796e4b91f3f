// The picker's and the listings' bundles are stored as the function bin/load-cli.js compiles
// (scripts/build-cli.js storeWrapped), so the launcher compiles the file's string itself instead
// of a wrapped copy: one ~1 MB string in the young generation's large-object space, not two
// (issue 15, bench/README.md "Seventeenth sitting"). A bundle stored as esbuild wrote it (the whole
// CLI's, an older build's) still runs, wrapped by the launcher at the same columns, with the same
// cache. Needs the build (scripts/test.sh builds before the unit tests).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLauncherCopy } from './launcher-copy.js';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const loadCli = createRequire(import.meta.url)('../bin/load-cli.js');
const { BUNDLE_HEAD, BUNDLE_TAIL } = loadCli;
const WRAPPED = [loadCli.RESUME_BUNDLE, loadCli.PICKER_BUNDLE, loadCli.LIST_BUNDLE, loadCli.FAST_LIST_BUNDLE, loadCli.SERVE_BUNDLE];
let dir;

beforeAll(() => {
  for (const bundle of WRAPPED) if (!existsSync(bundle)) throw new Error(`${basename(bundle)} is missing: run npm run build:node first (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), 'baton-wrapped-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Growth of V8's large-object spaces (young and old) while `compile` runs in a fresh process, with the bundle's size and whether its cache was taken. */
async function largeObjectGrowth(compile, bundle) {
  const script = `const v8 = require('node:v8');
const large = () => v8.getHeapSpaceStatistics().filter((s) => /large_object/.test(s.space_name)).reduce((n, s) => n + s.space_used_size, 0);
const loadCli = require(${JSON.stringify(join(ROOT, 'bin', 'load-cli.js'))});
const before = large();
const { script } = loadCli.${compile}();
process.stdout.write(JSON.stringify({ grew: large() - before, rejected: script.cachedDataRejected, size: require('node:fs').statSync(${JSON.stringify(bundle)}).size }));`;
  const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, BATON_HOME: join(dir, 'probe'), XDG_RUNTIME_DIR: join(dir, 'probe-run') } });
  return JSON.parse(stdout);
}

describe('bundles stored as the launcher compiles them', () => {
  it('the resume, hosted-picker, list, fast-list and serve bundles are one function expression, and the launcher compiles that string as it is', () => {
    for (const bundle of WRAPPED) {
      const stored = readFileSync(bundle, 'utf8');
      expect(stored.startsWith(BUNDLE_HEAD), basename(bundle)).toBe(true);
      expect(stored.endsWith(BUNDLE_TAIL), basename(bundle)).toBe(true);
      expect(loadCli.bundleSource(bundle)).toBe(stored);
      // ASCII only: a two-byte string is twice the memory and slower to read (build-cli.js asciiOnly).
      expect(/[^\x00-\x7f]/.test(stored), basename(bundle)).toBe(false);
    }
  });

  it('compiling the picker\'s, the listing\'s and the host\'s ~1 MB bundles holds one copy of their source, with the shipped cache taken', async () => {
    for (const [compile, bundle] of [['compileResume', loadCli.RESUME_BUNDLE], ['compileList', loadCli.LIST_BUNDLE], ['compileServe', loadCli.SERVE_BUNDLE]]) {
      const { grew, rejected, size } = await largeObjectGrowth(compile, bundle);
      expect(rejected, compile).toBe(false);
      // Wrapped at load (before): the file's string and its wrapped copy, 2x the size.
      expect(grew, compile).toBeGreaterThanOrEqual(size * 0.9);
      expect(grew, compile).toBeLessThan(size * 1.5);
    }
  }, 60_000);

  it('the same bundles stored as esbuild wrote them are wrapped by the launcher: the same answers, the cache still taken', async () => {
    const install = (name, alter) => installLauncherCopy(dir, name, alter);
    const built = install('built', () => undefined);
    const unwrapped = install('unwrapped', (cli) => {
      for (const bundle of WRAPPED) {
        const file = join(cli, basename(bundle));
        const stored = readFileSync(file, 'utf8');
        writeFileSync(file, stored.slice(BUNDLE_HEAD.length, stored.length - BUNDLE_TAIL.length));
      }
    });
    const answers = {};
    for (const [name, at] of Object.entries({ built, unwrapped })) {
      const env = { ...process.env, HOME: join(dir, `home-${name}`), BATON_HOME: join(dir, `data-${name}`), XDG_RUNTIME_DIR: join(dir, `run-${name}`) };
      const baton = (args) => run(process.execPath, [join(at, 'bin', 'baton.js'), ...args], { env }).then(({ stdout }) => ({ code: 0, stdout }), (error) => ({ code: error.code, stdout: error.stdout }));
      const refusal = await baton(['resume', '--json']);
      const listing = await baton(['list', '--json', '--no-host']);
      const taken = await run(process.execPath, ['-e', `const l = require(${JSON.stringify(join(at, 'bin', 'load-cli.js'))}); process.stdout.write(JSON.stringify(['compileResume', 'compilePicker', 'compileList', 'compileFastList'].map((f) => l[f]().script.cachedDataRejected)))`], { env });
      answers[name] = { refusal: [refusal.code, JSON.parse(refusal.stdout).code], listing: [listing.code, JSON.parse(listing.stdout).groups], rejected: JSON.parse(taken.stdout) };
    }
    expect(answers.built.refusal).toEqual([2, 'BAD_ARGUMENT']);
    expect(answers.built.listing).toEqual([0, []]);
    expect(answers.built.rejected).toEqual([false, false, false, false]);
    expect(answers.unwrapped).toEqual(answers.built);
  }, 90_000);
});
