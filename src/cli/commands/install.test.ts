import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/** `baton install` / `uninstall` in real processes against a temporary HOME. */
const CLI = join(import.meta.dirname, '..', 'run.ts');
const SETTINGS = '{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  },\n  "env": { "FOO": "1" }\n}\n';
let home: string;

function baton(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, HOME: home, BATON_HOME: join(home, 'data'), CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-install-cli-'));
  await mkdir(join(home, '.claude'));
  await writeFile(join(home, '.claude', 'settings.json'), SETTINGS);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('baton install / uninstall (CLI)', () => {
  it('--dry-run prints the diff and writes nothing; install, install again, uninstall', async () => {
    const dry = await baton(['install', 'claude', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- ${join(home, '.claude', 'settings.json')}`);
    expect(dry.stdout).toContain('+            "command": "baton approve --hook claude",');
    expect(dry.stdout).toContain(`+++ ${join(home, '.claude', 'commands', 'handoff.md')}`);
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);
    await expect(stat(join(home, '.claude', 'commands'))).rejects.toMatchObject({ code: 'ENOENT' });

    const first = await baton(['install', 'claude']);
    expect(first.stdout).toContain(`created ${join(home, '.claude', 'commands', 'handoff.md')}`);
    expect(first.stdout).toMatch(/backup of the previous settings: .*settings\.json\.baton-backup-\d{8}T\d{6}Z/);
    const installed = await readFile(join(home, '.claude', 'settings.json'), 'utf8');
    const second = await baton(['install', 'claude', '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ version: 1, command: 'install', ok: true, changes: [] });
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe(installed);

    const removed = await baton(['uninstall', 'claude']);
    expect(removed.code).toBe(0);
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe(SETTINGS);
  });

  it('refuses a malformed settings.json with exit 1 and a message naming the file', async () => {
    await writeFile(join(home, '.claude', 'settings.json'), '{ "env": { "A": 1, } }');
    const run = await baton(['install', 'claude']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`baton install: ${join(home, '.claude', 'settings.json')} was left untouched: it is not valid JSON`);
    expect(await readFile(join(home, '.claude', 'settings.json'), 'utf8')).toBe('{ "env": { "A": 1, } }');
  });

  it('codex: writes $CODEX_HOME/prompts/handoff.md; --project is refused; an unknown agent is a usage error', async () => {
    const codexHome = join(home, 'codex-home');
    const run = await baton(['install', 'codex'], { CODEX_HOME: codexHome });
    expect(run.code).toBe(0);
    expect(await readFile(join(codexHome, 'prompts', 'handoff.md'), 'utf8')).toContain('baton handoff --from codex --latest --json');
    expect((await baton(['install', 'codex', '--project'])).code).toBe(1);
    expect((await baton(['install', 'cursor'])).code).toBe(2);
  });
});
