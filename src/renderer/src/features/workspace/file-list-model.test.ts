import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countByStatus, filterFiles, splitPath, stepFile } from './file-list-model';
import { formatBytes, shortHash } from './format';
import { languageForPath } from './language-for-path';
import { wsFile } from './test-kit';

const files = [wsFile('src/a.ts'), wsFile('src/b.test.ts', { status: 'added' }), wsFile('docs/Guide.md', { status: 'renamed', oldPath: 'docs/old-guide.md' })];

describe('file list model', () => {
  it('filters by every word, case-insensitive, also on the old path of a rename', () => {
    expect(filterFiles(files, '').map((f) => f.path)).toEqual(['src/a.ts', 'src/b.test.ts', 'docs/Guide.md']);
    expect(filterFiles(files, 'SRC test').map((f) => f.path)).toEqual(['src/b.test.ts']);
    expect(filterFiles(files, 'old-guide').map((f) => f.path)).toEqual(['docs/Guide.md']);
    expect(filterFiles(files, 'zzz')).toEqual([]);
  });

  it('a filtered list is always a subset in the same order', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 30 }), fc.string({ maxLength: 6 }), (paths, query) => {
        const list = paths.map((path) => wsFile(path));
        const kept = filterFiles(list, query);
        let cursor = 0;
        for (const file of kept) {
          cursor = list.indexOf(file, cursor);
          expect(cursor).toBeGreaterThanOrEqual(0);
          cursor++;
        }
      }),
    );
  });

  it('counts per status in a fixed order, leaving out empty ones', () => {
    expect(countByStatus(files)).toEqual([
      { status: 'modified', count: 1 },
      { status: 'added', count: 1 },
      { status: 'renamed', count: 1 },
    ]);
    expect(countByStatus([])).toEqual([]);
  });

  it('steps with wrap-around, from nothing to the first or last', () => {
    expect(stepFile(files, null, 1)).toBe('src/a.ts');
    expect(stepFile(files, null, -1)).toBe('docs/Guide.md');
    expect(stepFile(files, 'src/a.ts', 1)).toBe('src/b.test.ts');
    expect(stepFile(files, 'docs/Guide.md', 1)).toBe('src/a.ts');
    expect(stepFile(files, 'src/a.ts', -1)).toBe('docs/Guide.md');
    expect(stepFile(files, 'gone.ts', 1)).toBe('src/a.ts');
    expect(stepFile([], 'x', 1)).toBeNull();
  });

  it('splits a path into directory and name', () => {
    expect(splitPath('src/deep/file.ts')).toEqual({ dir: 'src/deep/', name: 'file.ts' });
    expect(splitPath('README')).toEqual({ dir: '', name: 'README' });
  });
});

describe('formatting', () => {
  const sizes: Array<[number, string]> = [
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1023 bytes'],
    [1024, '1.0 KB'],
    [5 * 1024 * 1024, '5.0 MB'],
    [3 * 1024 ** 3, '3.0 GB'],
  ];
  for (const [size, text] of sizes) it(`${size} → ${text}`, () => expect(formatBytes(size)).toBe(text));

  it('short hashes, and a word for a missing file', () => {
    expect(shortHash('0123456789abcdef')).toBe('0123456789');
    expect(shortHash(null)).toBe('missing');
    expect(shortHash(undefined, 'none')).toBe('none');
  });
});

describe('language by path', () => {
  const table: Array<[string, string]> = [
    ['src/app.tsx', 'typescript'],
    ['lib/x.mjs', 'javascript'],
    ['package.json', 'json'],
    ['styles/a.SCSS', 'scss'],
    ['README.md', 'markdown'],
    ['Dockerfile', 'dockerfile'],
    ['api/service.proto', 'proto'],
    ['.github/ci.yml', 'yaml'],
    ['Makefile', 'plaintext'],
    ['.env', 'plaintext'],
    ['notes.unknownext', 'plaintext'],
  ];
  for (const [path, language] of table) it(`${path} → ${language}`, () => expect(languageForPath(path)).toBe(language));
});
