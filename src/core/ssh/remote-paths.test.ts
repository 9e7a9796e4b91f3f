import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveHere, resolveRequestHere } from './remote-paths.js';

/** What the remote CLI resolves on its own box before asking the laptop (real files and symlinks). */
let box: string;
let home: string;
let repo: string;
beforeEach(() => {
  box = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'baton-box-')));
  home = path.join(box, 'home');
  repo = path.join(home, 'proj');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, 'src', 'a.ts'), 'x');
  mkdirSync(path.join(box, 'elsewhere'));
  symlinkSync(path.join(box, 'elsewhere'), path.join(repo, 'escape'));
  symlinkSync(path.join(repo, 'loop'), path.join(repo, 'loop'));
});
afterEach(() => rmSync(box, { recursive: true, force: true }));

describe('resolveHere', () => {
  it.each([
    ['an existing file, relative', 'src/a.ts', () => path.join(repo, 'src', 'a.ts')],
    ['a new file in an existing directory', 'src/new.ts', () => path.join(repo, 'src', 'new.ts')],
    ['a new file under new directories', 'gen/deep/x.ts', () => path.join(repo, 'gen', 'deep', 'x.ts')],
    ['a symlink out of the workspace is followed', 'escape/x', () => path.join(box, 'elsewhere', 'x')],
    ['~ is this box\'s home', '~/proj/src/a.ts', () => path.join(repo, 'src', 'a.ts')],
    ['.. climbs', '../outside.txt', () => path.join(home, 'outside.txt')],
  ])('%s', (_what, raw, expected) => {
    expect(resolveHere(raw, repo, home)).toBe(expected());
  });

  it.each([
    ['a variable', '$HOME/.bashrc'],
    ['a command substitution', '`whoami`/x'],
    ['another user\'s home', '~root/.profile'],
    ['a symlink loop', 'loop/x'],
  ])('%s cannot be resolved: null', (_what, raw) => {
    expect(resolveHere(raw, repo, home)).toBeNull();
  });
});

describe('resolveRequestHere', () => {
  it('sends the workspace root found here, the home, and each path inside or outside it', () => {
    const context = resolveRequestHere({ input: { file_path: 'src/a.ts', paths: ['escape/y', '$X'] }, cwd: path.join(repo, 'src') }, home);
    expect(context.workspaceRoot).toBe(repo);
    expect(context.home).toBe(home);
    expect(context.paths).toEqual([
      { path: 'src/a.ts', resolved: path.join(repo, 'src', 'src', 'a.ts'), inside: true },
      { path: 'escape/y', resolved: path.join(repo, 'src', 'escape', 'y'), inside: true },
      { path: '$X', resolved: null, inside: false },
    ]);
    const fromRoot = resolveRequestHere({ input: { file_path: 'escape/y' }, cwd: repo }, home);
    expect(fromRoot.paths).toEqual([{ path: 'escape/y', resolved: path.join(box, 'elsewhere', 'y'), inside: false }]);
  });
});
