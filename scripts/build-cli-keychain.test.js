// The build's warm-ups open scratch stores (a scratch `baton serve`, listings): where a Secret
// Service answers, a new store is encrypted at rest by default, so a build run under the person's
// session bus left a data key of each deleted scratch store in their own keychain (issue 17). The
// build now clears the bus for its warm-ups, and warms the key-read bundle's keychain read on a
// Secret Service of its own. This test builds a copy of the sources under a real Secret Service
// (Debian's gnome-keyring, the encryption tests' own) standing in for the person's.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecretService } from '../src/core/store/at-rest/test-support/secret-service.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** What scripts/build-cli.js reads: the launcher, the scripts, the sources and the package's settings. */
const BUILD_INPUTS = ['bin', 'scripts', 'src', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json'];
const BUILD_TIMEOUT_MS = 240_000;

let service;
let copy;
beforeAll(async () => {
  service = await startSecretService();
  copy = mkdtempSync(join(tmpdir(), 'baton-build-keychain-'));
  for (const input of BUILD_INPUTS) {
    if (existsSync(join(ROOT, input))) cpSync(join(ROOT, input), join(copy, input), { recursive: true, filter: (from) => !relative(ROOT, from).split('/').includes('node_modules') });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
});
afterAll(async () => {
  await service?.stop();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

/**
 * Baton's items in the service's keychain (secret-tool's attribute lines); throws when the search
 * itself fails, so an unreadable keychain never reads as an empty one.
 */
function batonItems() {
  return new Promise((done, fail) =>
    execFile('secret-tool', ['search', '--all', 'service', 'baton'], { env: service.env }, (error, stdout, stderr) => (error ? fail(error) : done(stdout + stderr))),
  );
}

/**
 * Runs the build in the copy as on a person's desktop: the session bus of `service` named in the
 * environment and found at $XDG_RUNTIME_DIR/bus too (where a libdbus built with the user session
 * looks when the variable is unset; the binding's own one here does not, it tries X11 autolaunch).
 * Its exit code and stderr.
 */
function buildUnderBus() {
  const runtime = join(copy, 'person-runtime');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const socket = /unix:path=([^,;]+)/.exec(service.address)[1];
  if (!existsSync(join(runtime, 'bus'))) symlinkSync(socket, join(runtime, 'bus'));
  return new Promise((done, fail) => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: service.address, XDG_RUNTIME_DIR: runtime };
    const child = spawn(process.execPath, [join('scripts', 'build-cli.js')], { cwd: copy, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', fail);
    child.once('exit', (code) => done({ code, stderr }));
  });
}

describe('the build and the keychain of the session bus it runs under', () => {
  it(
    'leaves no key in it, and warms the key-read cache with a keychain read on a Secret Service of its own',
    async () => {
      expect(await batonItems(), 'the keychain starts with no Baton item').toBe('');
      const { code, stderr } = await buildUnderBus();
      expect(code, stderr).toBe(0);
      expect(existsSync(join(copy, 'dist', 'cli', 'baton-key-read.cjs.cache'))).toBe(true);
      // Its own Secret Service started, its store was encrypted, and the warm-up's read got the key.
      expect(stderr).not.toMatch(/lacks the keychain read|got no key|no scratch Secret Service|was not encrypted|was not hosted|did not end within/);
      expect(await batonItems(), 'no key of a scratch store').toBe('');
    },
    BUILD_TIMEOUT_MS,
  );
});
