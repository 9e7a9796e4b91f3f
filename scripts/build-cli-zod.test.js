// scripts/build-cli.js gives zod's `locales` namespace English alone in the CLI bundles (issue 20:
// the other 49 languages were 263 KB of every bundle). That is safe only while no code of ours picks
// a locale, and it must hold in every bundle the launcher runs. Needs the build (scripts/test.sh
// builds before the unit tests).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Every bundle that holds zod: the resume and list bundles load it from baton-zod.cjs (build-cli.js zodOnFirstUse). */
const BUNDLES = ['baton.cjs', 'baton-handoff.cjs', 'baton-show.cjs', 'baton-zod.cjs'].map((f) => join(ROOT, 'dist', 'cli', f));
/** The side bundle the bundles that load zod at its first use load it from. */
const ZOD_ON_FIRST_USE = ['baton-zod.cjs'].map((f) => join(ROOT, 'dist', 'cli', f));

/** Every .ts file under dir. */
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

describe('the CLI bundles hold zod with English messages alone', () => {
  it('no source of the CLI selects a zod locale (z.locales, z.core.locales, zod/v4/locales)', () => {
    const users = ['src/cli', 'src/core', 'src/shared', 'src/server']
      .flatMap((dir) => sources(join(ROOT, dir)))
      .filter((file) => /\bz\.(core\.)?locales\b|zod\/(v4\/)?locales|\blocales\s*}\s*from\s*['"]zod/.test(readFileSync(file, 'utf8')));
    expect(users).toEqual([]);
  });

  it.each(BUNDLES)('%s has English and no other language of zod', (bundle) => {
    if (!existsSync(bundle)) throw new Error(`the build is missing (${bundle}): run npm run build:node first`);
    const text = readFileSync(bundle, 'utf8');
    // en.js's message for a wrong type, and id.js's (Indonesian) and es.js's for the same.
    expect(text).toContain('Invalid input');
    expect(text).not.toContain('Input tidak valid');
    expect(text).not.toContain('Entrada inv');
  });
});

describe('the side bundle the bundles that load zod at its first use load it from', () => {
  // zod's ES build, bundled, keeps a namespace object per module, whose getters esbuild defines at
  // every load (~1,200 of them, one `$ZodAny:()=>` among them) although the modules initialise at
  // first use; its CommonJS build sets its exports when required (bench/README.md, "Twelfth sitting:
  // the warm listing without a host").
  it.each(ZOD_ON_FIRST_USE)('%s holds zod\'s CommonJS build, no namespace objects of its ES build', (bundle) => {
    const text = readFileSync(bundle, 'utf8');
    // The CommonJS build assigns its classes to its exports object (`x.$ZodAny=`); the ES build's
    // namespace lists them as getters (`$ZodAny:()=>`).
    expect(text).toMatch(/\.\$ZodAny=/);
    expect(text).not.toMatch(/\$ZodAny:\(\)=>/);
  });
});
