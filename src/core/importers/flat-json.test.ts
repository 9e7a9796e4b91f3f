import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatJson } from './flat-json.js';

// Issue 15: the texts a cold scan keeps to its end are flat strings. The child keeps 50,000 list
// rows of ~300 characters made one way or the other, and reports the heap each holds beyond its
// characters (measured between full collections, so only what stays alive counts).
const MODULE = resolve(import.meta.dirname, 'flat-json.ts');
const CHILD = `
const { flatJson } = await import(${JSON.stringify(MODULE)});
const make = process.env.HOW === 'flat' ? flatJson : JSON.stringify;
const rows = [];
globalThis.gc();
const before = process.memoryUsage().heapUsed;
let chars = 0;
for (let i = 0; i < 50_000; i++) {
  const text = make({ id: 'claude:' + i + '-5c48-40b9-9f0e-6b1d2c3a4e5f', cwd: '/home/dev/project-' + (i % 50), gitRoot: null, branch: 'main', title: 'Session ' + i + ': make the build green again', updatedAt: '2026-11-07T18:35:25.000Z', messageCount: i % 40, source: 'claude', holder: { who: 'claude', epoch: 0 }, parentId: null, archived: false });
  chars += text.length;
  rows.push(text);
}
globalThis.gc();
globalThis.gc();
process.stdout.write(String((process.memoryUsage().heapUsed - before - chars) / rows.length));
`;

function bytesBeyondCharacters(how: 'flat' | 'stringify'): Promise<number> {
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', CHILD], { env: { ...process.env, HOW: how } }, (error, stdout, stderr) =>
      error ? fail(new Error(`${error.message}\n${stderr}`)) : done(Number(stdout)),
    ),
  );
}

describe('flatJson (issue 15)', () => {
  it('gives the same text as JSON.stringify', () => {
    const value = { a: 'x'.repeat(500), b: [1, 2, { c: 'ü "q"' }], d: null };
    expect(flatJson(value)).toBe(JSON.stringify(value));
  });

  it('keeps a long text as one string: no rope of pieces left in the heap', async () => {
    const [flat, stringified] = await Promise.all([bytesBeyondCharacters('flat'), bytesBeyondCharacters('stringify')]);
    // Measured: flat ~26 bytes per text beyond its characters (a string's header, the array's slot); JSON.stringify's rope ~170.
    expect(flat).toBeLessThan(48);
    expect(stringified).toBeGreaterThan(flat + 64);
  }, 60_000);
});
