import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteSessionScript, remoteSetupScript } from '../../core/ssh/ssh-session.js';
import { splitSshArgs } from './ssh.js';

describe('baton ssh arguments', () => {
  it.each([
    [[], { sshArgs: [], command: [] }],
    [['-p', '2222', '-i', 'k'], { sshArgs: ['-p', '2222', '-i', 'k'], command: [] }],
    [['-p', '2222', '--', 'claude', '--resume', 'x'], { sshArgs: ['-p', '2222'], command: ['claude', '--resume', 'x'] }],
    [['--', 'a', '--', 'b'], { sshArgs: [], command: ['a', '--', 'b'] }],
  ])('%j', (words, expected) => {
    expect(splitSshArgs(words)).toEqual(expected);
  });
});

describe('the remote scripts (run by the remote login shell)', () => {
  it('the session script exports the directory, runs the command, removes the directory and keeps the exit code', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-home-'));
    mkdirSync(path.join(home, '.baton-ssh'));
    const env = { ...process.env, HOME: home };
    const dir = "/tmp/it's here";
    const out = execFileSync('/bin/sh', ['-c', `${remoteSessionScript(dir, ['printf', '%s', '"$BATON_SSH_ENDPOINT"'])}`], { encoding: 'utf8', env });
    expect(out).toBe(dir);
    let code = 0;
    try {
      execFileSync('/bin/sh', ['-c', remoteSessionScript('/nonexistent-dir', ['exit', '7'])], { env });
    } catch (error) {
      code = (error as { status: number }).status;
    }
    // `exit 7` inside ends the shell before clean-up: the user's command decides, as with plain ssh.
    expect(code).toBe(7);
    // The directory (with the token) is removed at the end, and a failing command's status is kept.
    const made = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-dir-'));
    writeFileSync(path.join(made, 'token'), 'x');
    const linked = spawnSync('/bin/sh', ['-c', remoteSessionScript(made, ['readlink', '"$HOME/.baton-ssh/current"'])], { env, encoding: 'utf8' });
    expect(linked.stdout.trim()).toBe(made); // the well-known link, for processes without the variable
    const again = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-dir-'));
    const run = spawnSync('/bin/sh', ['-c', remoteSessionScript(again, ['false'])], { env });
    expect(run.status).toBe(1);
    expect(existsSync(again)).toBe(false);
    expect(existsSync(made)).toBe(false);
    // Gone with its session; a link another (newer) session owns would have been left alone.
    expect(spawnSync('readlink', [path.join(home, '.baton-ssh', 'current')]).status).not.toBe(0);
    rmSync(home, { recursive: true, force: true });
  });

  it('the set-up script refuses a credential id that is not a safe word', () => {
    expect(() => remoteSetupScript('a;rm -rf ~')).toThrow(/unexpected credential id/);
    expect(remoteSetupScript('AbC_-1')).toContain('$HOME/.baton-ssh');
  });
});

describe('a newer session keeps its link when an older one ends', () => {
  it('removes ~/.baton-ssh/current only while it still points at the ending session', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-home-'));
    mkdirSync(path.join(home, '.baton-ssh'));
    const older = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-old-'));
    const newer = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-new-'));
    const link = path.join(home, '.baton-ssh', 'current');
    // The older session's command: meanwhile a newer session took the link.
    spawnSync('/bin/sh', ['-c', remoteSessionScript(older, ['ln', '-sfn', newer, `"${link}"`])], { env: { ...process.env, HOME: home } });
    expect(execFileSync('readlink', [link], { encoding: 'utf8' }).trim()).toBe(newer);
    rmSync(home, { recursive: true, force: true });
    rmSync(newer, { recursive: true, force: true });
  });
});
