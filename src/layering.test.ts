import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md §2: arrows only point down. renderer → shared; preload → shared;
 * main → core → shared; server → core → shared; cli → core (and server, for `baton serve`) → shared.
 */
const SRC = resolve(import.meta.dirname);
const ALLOWED: Record<string, string[]> = {
  shared: ['shared'],
  core: ['core', 'shared'],
  cli: ['cli', 'core', 'shared', 'server'],
  server: ['server', 'core', 'shared'],
  main: ['main', 'core', 'shared'],
  preload: ['preload', 'shared'],
  renderer: ['renderer', 'shared'],
};
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

export function violations(layer: string, file: string, specifiers: string[]): string[] {
  const problems: string[] = [];
  for (const spec of specifiers) {
    if (spec === 'electron' && layer !== 'main' && layer !== 'preload') problems.push(`${file} imports electron`);
    if ((spec.startsWith('node:') || ['fs', 'path', 'os', 'child_process', 'net', 'crypto'].includes(spec)) && (layer === 'shared' || layer === 'renderer' || layer === 'preload'))
      problems.push(`${file} imports ${spec}`);
    if (spec.startsWith('.')) {
      const target = relative(SRC, resolve(dirname(join(SRC, file)), spec)).split(/[\\/]/)[0] ?? '';
      if (target in ALLOWED && !ALLOWED[layer]!.includes(target)) problems.push(`${file} imports ${spec} (${layer} → ${target})`);
    }
  }
  return problems;
}

describe('layering', () => {
  it('every import points down the layers', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const layer of Object.keys(ALLOWED)) {
      let files: string[] = [];
      try {
        files = sourceFiles(join(SRC, layer));
      } catch {
        continue;
      }
      for (const full of files) {
        // Tests and their support code run under vitest in Node, never in a bundle.
        if (/\.test\.tsx?$|[\\/]test-support[\\/]/.test(full)) continue;
        checked++;
        problems.push(...violations(layer, relative(SRC, full), importsOf(readFileSync(full, 'utf8'))));
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('catches the violations it is meant to catch', () => {
    expect(violations('core', 'core/x.ts', ['electron'])).toHaveLength(1);
    expect(violations('shared', 'shared/x.ts', ['node:fs'])).toHaveLength(1);
    expect(violations('shared', 'shared/x.ts', ['../core/paths.js'])).toHaveLength(1);
    expect(violations('renderer', 'renderer/src/x.ts', ['../../core/paths.js'])).toHaveLength(1);
    expect(violations('core', 'core/x.ts', ['../shared/ids.js', 'node:fs'])).toEqual([]);
    expect(importsOf("import { a } from './a.js';\nexport { b } from \"../b.js\";\nconst c = await import('node:fs');")).toEqual(['./a.js', '../b.js', 'node:fs']);
  });
});
