import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endpointDirHint, ensureEndpointDir, resolveEndpoint } from './endpoint.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'baton-hint-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the refusal names the variable that decides the socket directory', () => {
  it('XDG_RUNTIME_DIR when it decides, BATON_HOME otherwise', () => {
    const env = { XDG_RUNTIME_DIR: path.join(root, 'xdg') };
    const withXdg = resolveEndpoint(path.join(root, 'data'), env, 'linux');
    expect(endpointDirHint(withXdg.dir, env)).toMatch(/XDG_RUNTIME_DIR.*BATON_HOME does not move it/);
    const without = resolveEndpoint(path.join(root, 'data'), {}, 'linux');
    expect(endpointDirHint(without.dir, {})).toBe('set BATON_HOME to a private directory');
  });

  // chown to another uid needs root; as another user this case cannot be built (named, not silent).
  it.skipIf(process.getuid?.() !== 0)('a foreign-owned directory under XDG_RUNTIME_DIR is refused with the XDG hint (root only: chown)', async () => {
    const env = { XDG_RUNTIME_DIR: path.join(root, 'xdg') };
    const { dir } = resolveEndpoint(path.join(root, 'data'), env, 'linux');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chown(dir, 65534, 65534);
    const error = (await ensureEndpointDir(dir, env).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('uid 65534');
    expect(error.message).toMatch(/XDG_RUNTIME_DIR/);
    expect(error.message).not.toMatch(/set BATON_HOME/);
  });
});
