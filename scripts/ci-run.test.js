// `.ci/run` must fail, before spending minutes on npm ci and the suites, when chromium cannot be had.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CI_RUN = join(import.meta.dirname, '..', '.ci', 'run');
const dirs = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A scratch clone holding only .ci/run, and a PATH with only `dirname` and the given fake tools. */
function scratch(tools = {}) {
  const root = mkdtempSync(join(tmpdir(), 'baton-ci-run-'));
  dirs.push(root);
  mkdirSync(join(root, 'clone', '.ci'), { recursive: true });
  copyFileSync(CI_RUN, join(root, 'clone', '.ci', 'run'));
  const bin = join(root, 'bin');
  mkdirSync(bin);
  symlinkSync('/usr/bin/dirname', join(bin, 'dirname'));
  for (const [name, script] of Object.entries(tools)) {
    writeFileSync(join(bin, name), `#!/bin/bash\n${script}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return { root, run: (env) => spawnSync('/bin/bash', [join(root, 'clone', '.ci', 'run')], { env: { PATH: bin, ...env }, encoding: 'utf8', timeout: 10_000 }) };
}

const lastLine = (text) => text.trim().split('\n').at(-1);

describe('.ci/run without chromium', () => {
  it('fails with a failure line when chromium is absent and apt-get is not on PATH', () => {
    const { root, run } = scratch();
    const result = run({ BATON_CHROMIUM: join(root, 'no-chromium') });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`chromium is missing at ${join(root, 'no-chromium')} and could not be installed`);
    expect(lastLine(result.stdout)).toBe('0 passed, 1 failed, 0 skipped');
  });

  it('fails the same way when apt-get runs but cannot install it', () => {
    const { root, run } = scratch({ 'apt-get': 'echo "E: Unable to locate package chromium" >&2; exit 100' });
    const result = run({ BATON_CHROMIUM: join(root, 'no-chromium') });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('apt-get could not install chromium');
    expect(lastLine(result.stdout)).toBe('0 passed, 1 failed, 0 skipped');
  });

  it('fails when the file is there but does not run', () => {
    const { root, run } = scratch();
    const broken = join(root, 'chromium');
    writeFileSync(broken, '#!/bin/bash\nexit 127\n');
    chmodSync(broken, 0o755);
    const result = run({ BATON_CHROMIUM: broken });
    expect(result.status).toBe(1);
    expect(lastLine(result.stdout)).toBe('0 passed, 1 failed, 0 skipped');
  });

  it('goes on to npm ci once apt-get installed it (and stops there only because this scratch PATH has no npm)', () => {
    const root = mkdtempSync(join(tmpdir(), 'baton-ci-chromium-'));
    dirs.push(root);
    const target = join(root, 'chromium');
    const { run } = scratch({ 'apt-get': `[ "$1" = install ] && printf '#!/bin/bash\\necho "Chromium 1.0 fake"\\n' > ${target} && /bin/chmod +x ${target}; exit 0` });
    const result = run({ BATON_CHROMIUM: target });
    expect(result.stdout).toContain(`── Chromium 1.0 fake at ${target}`);
    expect(result.stdout).not.toContain('could not be installed');
    expect(lastLine(result.stdout)).toBe('0 passed, 1 failed, 0 skipped');
  });
});
