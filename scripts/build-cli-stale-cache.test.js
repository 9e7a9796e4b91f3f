import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * V8 takes a code cache for any source of the length it was made for (its check is the length and
 * the flags, not the text), and then runs the cached bytecode. The build warms each bundle's cache
 * through bin/load-cli.js, which hands V8 the cache file beside the bundle: a cache left by the
 * previous build, for a bundle of the same length, became the new bundle's code (a hosted
 * `baton list` failed with "kt is not a function", 2026-12-01). The build removes every cache
 * before its first warm-up.
 */
const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

describe('the build never warms a bundle from the previous build’s code cache', () => {
  it('V8 runs a stale cache of a same-length source as the old code (why the build must remove it)', () => {
    const before = new Script('globalThis.__answer = 1');
    before.runInThisContext();
    const stale = before.createCachedData();
    const after = new Script('globalThis.__answer = 2', { cachedData: stale });
    expect(after.cachedDataRejected).toBe(false);
    after.runInThisContext();
    expect(globalThis.__answer).toBe(1);
  });

  it('removes every cache load-cli.js reads before the first bundle is compiled', () => {
    const source = readFileSync(join(ROOT, 'scripts', 'build-cli.js'), 'utf8');
    const caches = Object.keys(require(join(ROOT, 'bin', 'load-cli.js'))).filter((name) => name.endsWith('_CACHE'));
    expect(caches.length).toBeGreaterThanOrEqual(6);
    const removal = /for \(const cache of \[([^\]]*)\]\) await rm\(cache, \{ force: true \}\);/.exec(source);
    expect(removal, 'build-cli.js removes the old caches').not.toBeNull();
    expect(removal[1].split(',').map((s) => s.trim()).sort()).toEqual([...caches].sort());
    const firstCompile = source.search(/= compile(Cli|FastList|Handoff|List|Resume|Show)\(\)/);
    expect(firstCompile).toBeGreaterThan(removal.index);
  });
});
