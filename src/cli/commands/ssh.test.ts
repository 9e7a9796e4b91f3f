import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
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
    const dir = "/tmp/it's here";
    const out = execFileSync('/bin/sh', ['-c', `${remoteSessionScript(dir, ['printf', '%s', '"$BATON_SSH_ENDPOINT"'])}`], { encoding: 'utf8' });
    expect(out).toBe(dir);
    let code = 0;
    try {
      execFileSync('/bin/sh', ['-c', remoteSessionScript('/nonexistent-dir', ['exit', '7'])]);
    } catch (error) {
      code = (error as { status: number }).status;
    }
    // `exit 7` inside ends the shell before clean-up: the user's command decides, as with plain ssh.
    expect(code).toBe(7);
    // A command that fails: its status is kept, and the directory (with the token) is removed.
    const made = mkdtempSync(path.join(os.tmpdir(), 'baton-ssh-dir-'));
    writeFileSync(path.join(made, 'token'), 'x');
    const run = spawnSync('/bin/sh', ['-c', remoteSessionScript(made, ['false'])]);
    expect(run.status).toBe(1);
    expect(existsSync(made)).toBe(false);
  });

  it('the set-up script refuses a credential id that is not a safe word', () => {
    expect(() => remoteSetupScript('a;rm -rf ~')).toThrow(/unexpected credential id/);
    expect(remoteSetupScript('AbC_-1')).toContain('$HOME/.baton-ssh');
  });
});
