import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sshOriginOf, sshResumeLine } from '../../shared/ssh-origin.js';

describe('sshOriginOf', () => {
  it('reads the stamp the desktop wrote', () => {
    expect(sshOriginOf({ sshFrom: { host: 'devbox', receivedAt: '2026-11-30T00:00:00Z' } })).toEqual({ host: 'devbox', receivedAt: '2026-11-30T00:00:00Z' });
  });
  it.each([null, {}, { sshFrom: null }, { sshFrom: { host: '' } }, { sshFrom: { host: 3 } }, { relayedFrom: { name: 'x' } }])('null for %j', (doc) => {
    expect(sshOriginOf(doc)).toBeNull();
  });
});

describe('sshResumeLine', () => {
  it('prints the ssh line the issue asks for', () => {
    expect(sshResumeLine('devbox', '/home/me/app', "claude --resume 'abc'")).toBe(`ssh devbox -t 'cd /home/me/app && claude --resume '\\''abc'\\'''`);
  });

  it.each([
    ['/srv/my app', 'claude --resume id-1'],
    ["/srv/it's", 'codex resume x'],
    ['/srv/$(touch pwned)', 'baton resume s1'],
    ['/srv/a;b`c`"d"', "claude --resume 'q'"],
  ])('survives two shells for cwd %j (what the remote shell runs is exactly cd + command)', (cwd, command) => {
    const line = sshResumeLine('user@devbox', cwd, command);
    // Replace `ssh HOST -t` by printf so the local shell shows the one argument ssh would send.
    const remoteArg = execFileSync('/bin/sh', ['-c', line.replace(/^ssh \S+ -t /, 'printf %s ')], { encoding: 'utf8' });
    expect(remoteArg).toBe(`cd ${cwd.match(/^[A-Za-z0-9_./:@%+=-]+$/) ? cwd : `'${cwd.replace(/'/g, `'\\''`)}'`} && ${command}`);
    // And the remote shell's parse of the cd target is the cwd itself.
    const parsedCwd = execFileSync('/bin/sh', ['-c', remoteArg.replace(/^cd /, 'printf %s ').replace(/ && .*$/, '')], { encoding: 'utf8' });
    expect(parsedCwd).toBe(cwd);
  });
});
