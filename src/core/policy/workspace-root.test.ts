import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseWorkspaceRoot, findGitRoot } from './workspace-root.js';

let base: string;
let home: string;
let repo: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'baton-root-')));
  home = join(base, 'home');
  repo = join(home, 'code', 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
  mkdirSync(join(base, 'loose'));
  symlinkSync(repo, join(home, 'link-to-repo'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('chooseWorkspaceRoot', () => {
  it('takes the Baton session root first, even when the agent reports another cwd', () => {
    expect(chooseWorkspaceRoot({ sessionRoot: repo, cwd: home, home })).toEqual({ root: repo, source: 'session', warning: null });
  });

  it('otherwise the git root around the cwd, with symlinks resolved, never the cwd alone', () => {
    expect(findGitRoot(join(repo, 'src', 'deep'))).toBe(repo);
    expect(chooseWorkspaceRoot({ cwd: join(repo, 'src', 'deep'), home })).toEqual({ root: repo, source: 'git', warning: null });
    expect(chooseWorkspaceRoot({ cwd: join(home, 'link-to-repo', 'src'), home }).root).toBe(repo);
  });

  it('falls back to the cwd with a warning, and warns when the root is / or home', () => {
    expect(chooseWorkspaceRoot({ cwd: join(base, 'loose'), home })).toMatchObject({ root: join(base, 'loose'), source: 'cwd', warning: expect.stringContaining("agent's cwd") });
    expect(chooseWorkspaceRoot({ cwd: home, home, sessionRoot: home }).warning).toContain('home directory');
    expect(chooseWorkspaceRoot({ cwd: '/', home, sessionRoot: '/' }).warning).toContain('whole disk');
  });
});
