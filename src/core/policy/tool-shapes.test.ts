import { describe, expect, it } from 'vitest';
import { looksReadOnly, patchOf, patchTargets, pathsOf, shellCommandOf, urlsOf } from './tool-shapes.js';

describe('tool shapes', () => {
  it("reads a Codex patch's Add/Update/Delete/Move paths", () => {
    const patch = '*** Begin Patch\n*** Add File: a.ts\n+x\n*** Update File: src/b.ts\n*** Move to: lib/b.ts\n@@\n-a\n+b\n*** Delete File: old.ts\n*** End Patch';
    expect(patchTargets(patch)).toEqual([
      { op: 'add', path: 'a.ts' },
      { op: 'update', path: 'src/b.ts' },
      { op: 'move', path: 'lib/b.ts' },
      { op: 'delete', path: 'old.ts' },
    ]);
    expect(patchOf('apply_patch', { input: patch })).toBe(patch);
    expect(patchOf('shell', { command: ['apply_patch', patch] })).toBe(patch);
    expect(patchOf('Bash', { command: 'apply_patch' })).toBeNull();
  });

  it('finds commands, paths and URLs in every agent shape', () => {
    expect(shellCommandOf({ command: ['bash', '-lc', 'npm test'], workdir: '/w' })).toEqual({ command: "bash -lc 'npm test'", workdir: '/w' });
    expect(shellCommandOf({ cmd: 'ls' })).toEqual({ command: 'ls', workdir: null });
    expect(shellCommandOf({ command: 42 })).toBeNull();
    expect(pathsOf({ absolute_path: '/a', paths: ['/b', 3], edits: [{ file_path: '/c' }] })).toEqual(['/a', '/b', '/c']);
    expect(urlsOf({ prompt: 'summarise https://example.com/a and http://x.io' })).toEqual(['https://example.com/a', 'http://x.io']);
    expect(looksReadOnly('mcp__filesystem__read_file')).toBe(true);
    expect(looksReadOnly('mcp__filesystem__write_file')).toBe(false);
  });
});
