import { describe, expect, it } from 'vitest';
import { vscodeFileLink } from './editor-link.js';

describe('vscodeFileLink', () => {
  it('links an absolute path at a line, encoding what a URL cannot hold', () => {
    expect(vscodeFileLink('/home/dev/api/src/main.ts', 12)).toBe('vscode://file/home/dev/api/src/main.ts:12');
    expect(vscodeFileLink('/home/dev/my project/#1?.ts')).toBe('vscode://file/home/dev/my%20project/%231%3F.ts:1');
    expect(vscodeFileLink('C:\\Users\\dev\\a.ts', 0)).toBe('vscode://file/C%3A/Users/dev/a.ts:1');
  });
});
