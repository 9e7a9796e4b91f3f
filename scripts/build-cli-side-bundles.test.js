// scripts/build-cli.js moves zod and secretlint's preset out of the list and resume bundles into
// side bundles (baton-zod.cjs, baton-secretlint.cjs) that those bundles load at their first use,
// each compiled with its own code cache (issue 15, bench/README.md "Eighteenth sitting"). Needs the
// build (scripts/test.sh builds before the unit tests).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { bundleSource, SECRETLINT_BUNDLE, SECRETLINT_CACHE, ZOD_BUNDLE, ZOD_CACHE } = require(join(ROOT, 'bin', 'load-cli.js'));
/** The bundles whose usual run neither parses nor redacts (a warm listing, the picker's first screen). */
const WITHOUT_THEM = ['baton-list-local.cjs', 'baton-resume.cjs'].map((f) => join(ROOT, 'dist', 'cli', f));

/** Bytes only zod's code holds (its core's global config, a class of its CommonJS build). */
const ZOD_MARKERS = ['__zod_globalConfig', '.$ZodAny='];
/** Bytes only secretlint's code holds (@secretlint/core's ignore message, the AWS rule's option, the lint call's option). */
const SECRETLINT_MARKERS = ['IGNORE_MESSAGE', 'enableIDScanRule', 'noPhysicFilePath'];

function builtText(file) {
  if (!existsSync(file)) throw new Error(`the build is missing (${file}): run npm run build:node first`);
  return readFileSync(file, 'utf8');
}

describe('the list and resume bundles hold neither zod nor secretlint', () => {
  it.each(WITHOUT_THEM)('%s holds none of their code, and loads each through the launcher\'s loader', (bundle) => {
    const text = builtText(bundle);
    for (const marker of [...ZOD_MARKERS, ...SECRETLINT_MARKERS]) expect(text, marker).not.toContain(marker);
    expect(text).toContain('require("../../bin/load-cli.js").loadZod()');
    expect(text).toContain('require("../../bin/load-cli.js").loadSecretlint()');
  });

  it('their side bundles hold it, each alone', () => {
    const zod = builtText(ZOD_BUNDLE);
    const secretlint = builtText(SECRETLINT_BUNDLE);
    for (const marker of ZOD_MARKERS) {
      expect(zod, marker).toContain(marker);
      expect(secretlint, marker).not.toContain(marker);
    }
    for (const marker of SECRETLINT_MARKERS) {
      expect(secretlint, marker).toContain(marker);
      expect(zod, marker).not.toContain(marker);
    }
  });
});

describe('each side bundle ships a code cache of its own', () => {
  it.each([
    [ZOD_BUNDLE, ZOD_CACHE],
    [SECRETLINT_BUNDLE, SECRETLINT_CACHE],
  ])('%s: V8 takes its cache, which holds more than the compile alone (the build warmed it by a run)', (bundle, cache) => {
    const source = bundleSource(bundle);
    const script = new Script(source, { filename: bundle, cachedData: readFileSync(cache) });
    expect(script.cachedDataRejected).toBe(false);
    const compileOnly = new Script(source, { filename: `${bundle}-compile-only` }).createCachedData();
    expect(readFileSync(cache).length).toBeGreaterThan(compileOnly.length * 1.2);
  });
});
