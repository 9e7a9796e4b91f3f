// bin/host-socket.js restates where a host's socket is, for the launcher to check before it
// compiles the hosted picker's bundle; it must name the same path as the transport's own rules.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { resolveEndpoint } from '../src/core/transport/endpoint.ts';
import { resolveDataDir } from '../src/core/paths.ts';

const { dataDir, hostSocketPath, hostMayRun, storeMayBeEncrypted } = createRequire(import.meta.url)('../bin/host-socket.js');

const envs = {
  'BATON_HOME and XDG_RUNTIME_DIR': { HOME: '/home/a', BATON_HOME: '/data/b', XDG_RUNTIME_DIR: '/run/user/1' },
  'BATON_HOME alone': { HOME: '/home/a', BATON_HOME: '/data/b' },
  'a relative XDG_RUNTIME_DIR (ignored)': { HOME: '/home/a', BATON_HOME: '/data/b', XDG_RUNTIME_DIR: 'run/user/1' },
  'an empty XDG_RUNTIME_DIR': { HOME: '/home/a', XDG_RUNTIME_DIR: '' },
  'XDG_DATA_HOME': { HOME: '/home/a', XDG_DATA_HOME: '/xdg/data' },
  'HOME alone': { HOME: '/home/a' },
};

describe('bin/host-socket.js', () => {
  for (const platform of ['linux', 'darwin', 'freebsd']) {
    for (const [name, env] of Object.entries(envs)) {
      it(`names resolveEndpoint's socket on ${platform} with ${name}`, () => {
        expect(hostSocketPath(env, platform)).toBe(resolveEndpoint(resolveDataDir(env, platform), env, platform).address);
      });
    }
  }

  for (const platform of ['linux', 'darwin', 'freebsd']) {
    for (const [name, env] of Object.entries(envs)) {
      it(`names resolveDataDir's data directory on ${platform} with ${name} (where encryption.json is looked for)`, () => {
        expect(dataDir(env, platform)).toBe(resolveDataDir(env, platform));
      });
    }
  }

  it('finds no encryption.json where the data directory has none, and leaves Windows to the bundle', () => {
    expect(storeMayBeEncrypted({ HOME: '/nonexistent-baton-home' }, 'linux')).toBe(false);
    expect(storeMayBeEncrypted({ HOME: 'C:\\\\Users\\\\a' }, 'win32')).toBe(true);
  });

  it('leaves Windows (a named pipe) to the bundle, and finds no host where there is no socket', () => {
    expect(hostSocketPath({ HOME: 'C:\\\\Users\\\\a' }, 'win32')).toBeNull();
    expect(hostMayRun({ HOME: 'C:\\\\Users\\\\a' }, 'win32')).toBe(true);
    expect(hostMayRun({ HOME: '/nonexistent-baton-home', XDG_RUNTIME_DIR: '/nonexistent-baton-run' }, 'linux')).toBe(false);
  });
});
