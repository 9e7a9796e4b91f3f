import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BATON_HOOK_COMMAND } from './claude-hook-entry.js';
import { applyInstall, applyUninstall, planDiff, planInstall, planUninstall, type InstallPlan } from './install.js';
import { resolveInstallTarget, type InstallTarget } from './targets.js';

/**
 * Install and uninstall against a temporary HOME holding real-shaped Claude Code settings: the
 * person's own hooks, permissions and env, an unknown key, a 4-space indent.
 */
const REAL_SETTINGS = `{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {
        "allow": [
            "Bash(npm run test:*)",
            "Read(~/notes/**)"
        ],
        "deny": [
            "Bash(curl:*)"
        ],
        "defaultMode": "acceptEdits"
    },
    "env": {
        "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
        "MY_TEAM_FLAG": "on"
    },
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "~/bin/log-bash.sh"
                    }
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "notify-send done"
                    }
                ]
            }
        ]
    },
    "model": "opus",
    "someFutureKey": {
        "nested": [1, 2, 3]
    }
}
`;

let home: string;
let dataDir: string;
let target: InstallTarget;
let settings: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-install-'));
  dataDir = join(home, 'baton-data');
  const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude-config') };
  target = resolveInstallTarget('claude', 'user', home, env);
  settings = target.settingsFile!;
  await mkdir(join(home, 'claude-config'), { recursive: true });
  await writeFile(settings, REAL_SETTINGS);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function install(): Promise<InstallPlan> {
  const plan = await planInstall(target);
  await applyInstall(plan, dataDir);
  return plan;
}
async function uninstall(): Promise<InstallPlan> {
  const plan = await planUninstall(target, dataDir);
  await applyUninstall(plan, dataDir);
  return plan;
}
const read = (path: string) => readFile(path, 'utf8');

describe('baton install claude', () => {
  it('honours CLAUDE_CONFIG_DIR and writes the command file and the hook, keeping every user entry', async () => {
    expect(target.commandFile).toBe(join(home, 'claude-config', 'commands', 'handoff.md'));
    await install();
    const after = JSON.parse(await read(settings));
    const before = JSON.parse(REAL_SETTINGS);
    expect(after.permissions).toEqual(before.permissions);
    expect(after.env).toEqual(before.env);
    expect(after.someFutureKey).toEqual(before.someFutureKey);
    expect(after.hooks.Stop).toEqual(before.hooks.Stop);
    expect(after.hooks.PreToolUse[0]).toEqual(before.hooks.PreToolUse[0]);
    expect(after.hooks.PreToolUse[1].hooks[0]).toEqual({ type: 'command', command: BATON_HOOK_COMMAND, timeout: 660 });
    expect(Object.keys(after)).toEqual(Object.keys(before));
    // The 4-space indent and the final newline survive.
    expect(await read(settings)).toMatch(/^\{\n {4}"\$schema"/);
    expect((await read(settings)).endsWith('}\n')).toBe(true);
    expect(await read(target.commandFile)).toContain('!`baton handoff --from claude --session "${CLAUDE_SESSION_ID}" --json`');
  });

  it('keeps a timestamped backup holding the original bytes', async () => {
    await install();
    const backups = (await readdir(join(home, 'claude-config'))).filter((n) => n.startsWith('settings.json.baton-backup-'));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^settings\.json\.baton-backup-\d{8}T\d{6}Z$/);
    expect(await read(join(home, 'claude-config', backups[0]!))).toBe(REAL_SETTINGS);
  });

  it('is idempotent: a second install changes no byte and plans nothing', async () => {
    await install();
    const first = { settings: await read(settings), command: await read(target.commandFile), mtime: (await stat(settings)).mtimeMs };
    const again = await planInstall(target);
    expect(again.changes).toEqual([]);
    await applyInstall(again, dataDir);
    expect(await read(settings)).toBe(first.settings);
    expect(await read(target.commandFile)).toBe(first.command);
    expect((await stat(settings)).mtimeMs).toBe(first.mtime);
  });

  it('uninstall right after install restores the original bytes and removes the command file', async () => {
    await install();
    await uninstall();
    expect(await read(settings)).toBe(REAL_SETTINGS);
    await expect(stat(target.commandFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('uninstall after the person edited other entries keeps their edits byte for byte and removes only the hook', async () => {
    await install();
    const addRule = (t: string) => t.replace('"Read(~/notes/**)"', '"Read(~/notes/**)",\n            "Bash(git status)"').replace('"model": "opus"', '"model": "sonnet"');
    await writeFile(settings, addRule(await read(settings)));
    await uninstall();
    expect(await read(settings)).toBe(addRule(REAL_SETTINGS));
  });

  it('uninstall after the person rewrote the file in another format keeps their entries', async () => {
    await install();
    const edited = JSON.parse(await read(settings));
    edited.permissions.allow.push('Bash(git status)');
    edited.env.NEW_VAR = '1';
    await writeFile(settings, `${JSON.stringify(edited, null, 4)}\n`);
    await uninstall();
    const after = JSON.parse(await read(settings));
    expect(after.permissions.allow).toContain('Bash(git status)');
    expect(after.env.NEW_VAR).toBe('1');
    expect(after.hooks.PreToolUse).toEqual(JSON.parse(REAL_SETTINGS).hooks.PreToolUse);
    expect(JSON.stringify(after)).not.toContain(BATON_HOOK_COMMAND);
  });

  it('with no settings file: creates one, and uninstall deletes it again', async () => {
    await rm(settings);
    await install();
    expect(JSON.parse(await read(settings))).toEqual({ hooks: { PreToolUse: [expect.objectContaining({ matcher: expect.any(String) })] } });
    await uninstall();
    await expect(stat(settings)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('without its record (data dir wiped) uninstall still removes only Baton entries', async () => {
    await install();
    await rm(dataDir, { recursive: true });
    await uninstall();
    expect(JSON.parse(await read(settings))).toEqual(JSON.parse(REAL_SETTINGS));
  });

  it('leaves a hook the person had installed by hand when install added nothing', async () => {
    const manual = JSON.parse(REAL_SETTINGS);
    manual.hooks.PreToolUse.push({ matcher: 'Bash', hooks: [{ type: 'command', command: BATON_HOOK_COMMAND, timeout: 700 }] });
    const text = `${JSON.stringify(manual, null, 4)}\n`;
    await writeFile(settings, text);
    await install();
    expect(await read(settings)).toBe(text);
    await uninstall();
    expect(await read(settings)).toBe(text);
  });

  it.each([
    ['not JSON', '{ "permissions": { "allow": [ } '],
    ['a comment', '{\n  // my settings\n  "model": "opus"\n}\n'],
    ['an array', '[1, 2]\n'],
    ['hooks as a string', '{ "hooks": "none" }\n'],
    ['PreToolUse as an object', '{ "hooks": { "PreToolUse": {} } }\n'],
  ])('refuses a malformed settings.json (%s) with a clear message and never writes it', async (_name, text) => {
    await writeFile(settings, text);
    await chmod(settings, 0o644);
    const before = await stat(settings);
    await expect(planInstall(target)).rejects.toMatchObject({ code: 'SETTINGS_MALFORMED', message: expect.stringContaining(`${settings} was left untouched`) });
    expect(await read(settings)).toBe(text);
    expect((await stat(settings)).mtimeMs).toBe(before.mtimeMs);
    await expect(stat(target.commandFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to overwrite a /handoff command the person wrote', async () => {
    await mkdir(join(home, 'claude-config', 'commands'), { recursive: true });
    await writeFile(target.commandFile, 'my own handoff\n');
    await expect(planInstall(target)).rejects.toMatchObject({ code: 'INSTALL_CONFLICT' });
    expect(await read(target.commandFile)).toBe('my own handoff\n');
  });

  it('the dry-run diff shows only the added hook group as + lines', async () => {
    const diff = planDiff(await planInstall(target));
    expect(diff).toContain(`--- ${settings}`);
    expect(diff).toContain('+                        "command": "baton approve --hook claude",');
    expect(diff).toContain('--- /dev/null');
    const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    // Text is inserted, never re-serialised: at most the closing brace before the new group changes.
    expect(removed.length).toBeLessThanOrEqual(1);
    expect(diff).not.toContain('-        "nested"');
  });

  it('project scope writes <project>/.claude and Codex honours CODEX_HOME and has no project scope', async () => {
    const project = join(home, 'repo');
    expect(resolveInstallTarget('claude', 'project', project, { HOME: home }).settingsFile).toBe(join(project, '.claude', 'settings.json'));
    const codex = resolveInstallTarget('codex', 'user', project, { HOME: home, CODEX_HOME: join(home, 'cx') });
    expect(codex).toMatchObject({ commandFile: join(home, 'cx', 'prompts', 'handoff.md'), settingsFile: null });
    expect(() => resolveInstallTarget('codex', 'project', project, { HOME: home })).toThrow(/only from/);
  });
});

describe('onPath', () => {
  it('finds an executable in a PATH directory and nothing in an empty PATH', async () => {
    const { onPath } = await import('./on-path.js');
    const bin = join(home, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'baton'), '#!/bin/sh\n');
    expect(onPath('baton', { PATH: bin })).toBe(false); // not executable yet
    await chmod(join(bin, 'baton'), 0o755);
    expect(onPath('baton', { PATH: `/nonexistent:${bin}` })).toBe(true);
    expect(onPath('baton', { PATH: '' })).toBe(false);
  });
});
