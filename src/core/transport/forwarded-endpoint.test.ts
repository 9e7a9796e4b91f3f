import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopEndpoint, forwardedEndpoint, wellKnownForward } from './forwarded-endpoint.js';
import { resolveEndpoint } from './endpoint.js';

let root: string;
let home: string;
let dataDir: string;
let forward: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'baton-fwd-'));
  home = path.join(root, 'home');
  dataDir = path.join(root, 'data');
  forward = path.join(home, '.baton-ssh', 'abc');
  mkdirSync(forward, { recursive: true, mode: 0o700 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('which desktop a CLI command talks to', () => {
  it('the variable baton ssh sets wins, and must be absolute', () => {
    expect(desktopEndpoint(dataDir, { BATON_SSH_ENDPOINT: forward }, home)).toEqual({ endpoint: { dir: forward, address: `${forward}/sock`, tokenPath: `${forward}/token` }, forwarded: true });
    expect(forwardedEndpoint({ BATON_SSH_ENDPOINT: 'relative/dir' })).toBeNull();
    expect(forwardedEndpoint({})).toBeNull();
  });

  it('without it: ~/.baton-ssh/current, only when its socket is there and no desktop listens here', () => {
    const local = { endpoint: resolveEndpoint(dataDir, {}), forwarded: false };
    expect(desktopEndpoint(dataDir, {}, home)).toEqual(local); // no link
    symlinkSync(forward, path.join(home, '.baton-ssh', 'current'));
    expect(wellKnownForward(home)).toBeNull(); // a link, but no forwarded socket (the session ended)
    writeFileSync(path.join(forward, 'sock'), ''); // stands for the socket ssh -R made
    expect(desktopEndpoint(dataDir, {}, home)).toEqual({ endpoint: { dir: forward, address: `${forward}/sock`, tokenPath: `${forward}/token` }, forwarded: true });
    // This box runs a desktop of its own: that one answers.
    mkdirSync(path.dirname(local.endpoint.address), { recursive: true });
    writeFileSync(local.endpoint.address, '');
    expect(desktopEndpoint(dataDir, {}, home)).toEqual(local);
  });
});
