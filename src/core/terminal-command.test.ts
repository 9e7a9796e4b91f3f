import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalCommandFor } from './terminal-command.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-term-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

function repo(dir: string, remote: string) {
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'remote', 'add', 'origin', remote]);
}

describe('terminalCommandFor', () => {
  it('gives each tool its own resume command, run in the real cwd', async () => {
    const cwd = join(root, 'my project');
    await mkdir(cwd);
    expect(await terminalCommandFor({ tool: 'claude', id: 'abc-123', cwd })).toEqual({
      tool: 'claude',
      command: 'claude --resume abc-123',
      cwd,
      cwdExists: true,
      movedTo: null,
      shellLine: `cd '${cwd}' && claude --resume abc-123`,
    });
    expect((await terminalCommandFor({ tool: 'codex', id: 'r1', cwd })).command).toBe('codex resume r1');
    expect((await terminalCommandFor({ tool: 'baton', id: 's-1', cwd })).command).toBe('baton resume s-1');
  });

  it('finds a moved repository by its root name and origin, keeping the subdirectory', async () => {
    const old = join(root, 'projects', 'api');
    await mkdir(join(old, 'server'), { recursive: true });
    repo(old, 'git@example.com:team/api.git');
    await mkdir(join(root, 'work'));
    await rename(old, join(root, 'work', 'api'));
    const result = await terminalCommandFor({ tool: 'claude', id: 'x', cwd: join(old, 'server'), gitRoot: old, remote: 'git@example.com:team/api.git' });
    expect(result.cwdExists).toBe(false);
    expect(result.movedTo).toBe(join(root, 'work', 'api', 'server'));
    expect(result.shellLine).toBe(`cd ${join(root, 'work', 'api', 'server')} && claude --resume x`);
  });

  it('does not offer a directory of the same name from another repository', async () => {
    const old = join(root, 'a', 'api');
    await mkdir(join(root, 'b', 'api'), { recursive: true });
    repo(join(root, 'b', 'api'), 'git@example.com:someone-else/api.git');
    const result = await terminalCommandFor({ tool: 'codex', id: 'y', cwd: old, gitRoot: old, remote: 'git@example.com:team/api.git' });
    expect(result).toMatchObject({ cwdExists: false, movedTo: null });
  });

  it('quotes a single quote in the path for the shell', async () => {
    const cwd = join(root, "it's here");
    await mkdir(cwd);
    expect((await terminalCommandFor({ tool: 'baton', id: 's', cwd })).shellLine).toBe(`cd '${join(root, "it'\\''s here")}' && baton resume s`);
  });
});

describe('terminalCommandFor a session that came through baton ssh (issue 22)', () => {
  it('prints the ssh line and never treats the remote path as a local one, even when it exists here', async () => {
    const cwd = join(root, 'proj');
    await mkdir(cwd); // a local directory at the same path must not be mistaken for the remote workspace
    const command = await terminalCommandFor({ tool: 'claude', id: 'abc-123', cwd, sshHost: 'me@devbox' });
    expect(command).toEqual({
      tool: 'claude',
      command: 'claude --resume abc-123',
      cwd,
      cwdExists: false,
      movedTo: null,
      shellLine: `ssh me@devbox -t 'cd ${cwd} && claude --resume abc-123'`,
      sshHost: 'me@devbox',
    });
  });

  it('reports a clone of the same repository on this machine (same origin), and only then', async () => {
    const remoteRoot = join(root, 'remote-home', 'api');
    const localClone = join(root, 'code', 'api');
    await mkdir(localClone, { recursive: true });
    repo(localClone, 'git@example.com:team/api.git');
    const known = [localClone];
    const same = await terminalCommandFor({ tool: 'codex', id: 'r1', cwd: remoteRoot, gitRoot: remoteRoot, remote: 'git@example.com:team/api.git', sshHost: 'devbox' }, known);
    expect(same.movedTo).toBe(localClone);
    expect(same.shellLine).toBe(`ssh devbox -t 'cd ${remoteRoot} && codex resume r1'`);
    const other = await terminalCommandFor({ tool: 'codex', id: 'r1', cwd: remoteRoot, gitRoot: remoteRoot, remote: 'git@example.com:team/other.git', sshHost: 'devbox' }, known);
    expect(other.movedTo).toBeNull();
    const noOrigin = await terminalCommandFor({ tool: 'codex', id: 'r1', cwd: remoteRoot, gitRoot: remoteRoot, remote: null, sshHost: 'devbox' }, known);
    expect(noOrigin.movedTo).toBeNull();
  });
});
