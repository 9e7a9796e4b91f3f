import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopFileValidate } from '../../core/test-support/desktop-file-validate.js';
import { onPath } from '../../core/handoff/launcher.js';

/** `baton doctor --fix` through the real CLI in a real process, against temporary XDG directories. */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-doctor-fix-'));
  await mkdir(join(root, 'home'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

function baton(args: string[], extraEnv: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      {
        cwd: join(import.meta.dirname, '..', '..', '..'),
        env: { PATH: process.env.PATH, HOME: join(root, 'home'), BATON_HOME: join(root, 'baton'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_DIRS: join(root, 'data'), XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '', ...extraEnv },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('baton doctor --fix', () => {
  it('registers baton:// for the desktop build, and the protocol check then passes', async () => {
    const exe = join(root, 'Baton Build', 'baton');
    await mkdir(join(root, 'Baton Build'));
    await writeFile(exe, '#!/bin/sh\nexit 0\n');
    await chmod(exe, 0o755);

    const before = await baton(['doctor', '--json'], { BATON_DESKTOP_EXEC: exe });
    const protocolBefore = (JSON.parse(before.stdout.trim().split('\n').at(-1)!) as { checks: { name: string; ok: boolean }[] }).checks.find((c) => c.name === 'baton:// links open Baton');
    expect(protocolBefore?.ok).toBe(false);

    const run = await baton(['doctor', '--fix'], { BATON_DESKTOP_EXEC: exe });
    const file = join(root, 'data', 'applications', 'baton.desktop');
    expect(run.stdout).toContain(`fix: wrote ${file}`);
    const text = await readFile(file, 'utf8');
    expect(text).toContain(`Exec="${exe}" --baton-url %u`);
    expect(text).toContain('MimeType=x-scheme-handler/baton;');
    expect(await desktopFileValidate(file)).toEqual({ code: 0, output: '' });
    if (onPath('xdg-mime')) {
      expect(run.stdout).toContain('fix: xdg-mime done');
      expect(run.stdout).toMatch(/✓ baton:\/\/ links open Baton: baton\.desktop/);
    } else {
      expect(run.stdout).toContain('fix: xdg-mime absent: xdg-mime is not installed');
    }
  });

  it('says plainly what it could not do when there is no desktop build', async () => {
    const run = await baton(['doctor', '--fix', '--json'], { BATON_DESKTOP_EXEC: join(root, 'missing') });
    const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { fix: { registered: unknown; notDone: string } };
    expect(report.fix.registered).toBeNull();
    expect(report.fix.notDone).toContain('does not exist');
  });
});
