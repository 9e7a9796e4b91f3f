import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudePermissionState, SETTINGS_MAX_BYTES } from './claude-permissions.js';
import { batonModeForCodex } from './codex-permissions.js';
import { importedPermission } from './imported-permission.js';
import { readAgentSession } from './read-session.js';

/** Permission state of imported sessions, from the REAL sample logs (read in place) and real settings files in temp dirs. */
const SAMPLES = join(resolve(import.meta.dirname, '../../..'), '..', 'shared', 'fixtures', 'agent-logs');
let tmp: string;
let configDir: string;
let project: string;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-imported-perm-'));
  configDir = join(tmp, 'claude-config');
  project = join(tmp, 'project');
  await mkdir(configDir);
  await mkdir(join(project, '.claude'), { recursive: true });
});
afterEach(async () => rm(tmp, { recursive: true, force: true }));

describe('Claude Code: permissionMode + user and project settings.json', () => {
  it('reads the transcript mode and the allow/deny rules of $CLAUDE_CONFIG_DIR and the project, read-only', async () => {
    await writeFile(join(configDir, 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' } }));
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(git status)'], additionalDirectories: ['../shared-lib', '~/notes'] } }));
    await writeFile(join(project, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }));
    const before = await stat(join(configDir, 'settings.json'));
    const state = await claudePermissionState({ transcriptMode: 'plan', transcriptPath: '/t.jsonl', cwd: project, env: { CLAUDE_CONFIG_DIR: configDir, HOME: '/home/u' } });
    expect(state).toMatchObject({ mode: 'plan', sourceTool: 'claude', sourceMode: 'plan' });
    expect(state.rules.sort()).toEqual(
      ['allow:Bash(npm test:*)', 'deny:Read(./.env)', 'allow:Bash(git status)', 'deny:Bash(curl:*)', `root:${project}`, `root:${join(tmp, 'shared-lib')}`, 'root:/home/u/notes'].sort(),
    );
    expect(state.sources).toEqual([
      { kind: 'transcript', path: '/t.jsonl', rules: 0 },
      { kind: 'user-settings', path: join(configDir, 'settings.json'), rules: 2 },
      { kind: 'project-settings', path: join(project, '.claude', 'settings.json'), rules: 1 },
      { kind: 'project-local-settings', path: join(project, '.claude', 'settings.local.json'), rules: 1 },
    ]);
    expect((await stat(join(configDir, 'settings.json'))).mtimeMs).toBe(before.mtimeMs);
  });

  it('without a transcript mode the most specific defaultMode wins; broken or oversized files are named, not fatal', async () => {
    await writeFile(join(configDir, 'settings.json'), '{"permissions": {"allow": ["Bash(ls)"]'); // torn
    await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: [42, '', 'Edit'] } }));
    await writeFile(join(project, '.claude', 'settings.local.json'), 'x'.repeat(SETTINGS_MAX_BYTES + 1));
    const state = await claudePermissionState({ transcriptMode: null, transcriptPath: '/t.jsonl', cwd: project, env: { CLAUDE_CONFIG_DIR: configDir } });
    expect(state.mode).toBe('acceptEdits');
    expect(state.rules).toEqual(['allow:Edit', `root:${project}`]);
    expect(state.sources?.[1]).toMatchObject({ kind: 'user-settings', rules: 0, error: expect.stringMatching(/^not JSON/) });
    expect(state.sources?.[3]).toMatchObject({ kind: 'project-local-settings', error: expect.stringContaining('not read') });
  });

  it('the real sample transcript: bypassPermissions from its user line, with the settings found', async () => {
    await writeFile(join(configDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(rm -rf:*)'] } }));
    const imported = await readAgentSession('claude', join(SAMPLES, 'claude-code-session.sample.jsonl'));
    const state = await importedPermission({ ...imported, cwd: project }, { CLAUDE_CONFIG_DIR: configDir });
    expect(state).toMatchObject({ mode: 'bypassPermissions', sourceMode: 'bypassPermissions' });
    expect(state?.rules).toContain('deny:Bash(rm -rf:*)');
  });
});

describe('Codex: approval_policy and sandbox_policy from turn_context', () => {
  it('the real sample rollout: on-request/workspace-write with its writable root', async () => {
    const imported = await readAgentSession('codex', join(SAMPLES, 'codex-rollout.sample.jsonl'));
    const turn = JSON.parse(readFileSync(join(SAMPLES, 'codex-rollout.sample.jsonl'), 'utf8').split('\n')[4]!) as { payload: { sandbox_policy: { writable_roots: string[] } } };
    const state = await importedPermission(imported);
    expect(state).toMatchObject({ mode: 'acceptEdits', sourceTool: 'codex', sourceMode: 'on-request/workspace-write', networkAccess: false });
    expect(state?.rules).toEqual([`root:${turn.payload.sandbox_policy.writable_roots[0]}`]);
    expect(state?.sources?.[0]).toMatchObject({ kind: 'turn-context', path: expect.stringMatching(/codex-rollout\.sample\.jsonl:5$/) });
  });

  it.each([
    ['never', 'danger-full-access', 'bypassPermissions'],
    ['never', 'read-only', 'plan'],
    ['never', 'workspace-write', 'acceptEdits'],
    ['on-request', 'workspace-write', 'acceptEdits'],
    ['on-request', 'read-only', 'default'],
    ['on-failure', 'danger-full-access', 'acceptEdits'],
    ['untrusted', 'workspace-write', 'default'],
    [undefined, undefined, 'default'],
  ])('approval %s + sandbox %s → %s', (approval, sandbox, mode) => {
    expect(batonModeForCodex(approval, sandbox)).toBe(mode);
  });
});

it('settings files are read, never written (contents unchanged)', async () => {
  const body = JSON.stringify({ permissions: { allow: ['Bash(ls)'] } });
  await writeFile(join(project, '.claude', 'settings.json'), body);
  await claudePermissionState({ transcriptMode: null, transcriptPath: '/t', cwd: project, env: { CLAUDE_CONFIG_DIR: configDir } });
  expect(await readFile(join(project, '.claude', 'settings.json'), 'utf8')).toBe(body);
});

it('any settings.json content gives a typed state, never a throw; only string rules survive (fast-check, real files)', async () => {
  const settings = fc.oneof(
    fc.jsonValue(),
    fc.record({ permissions: fc.record({ allow: fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null))), deny: fc.anything(), defaultMode: fc.oneof(fc.string(), fc.integer()), additionalDirectories: fc.array(fc.string()) }, { requiredKeys: [] }) }),
  );
  await fc.assert(
    fc.asyncProperty(settings, fc.boolean(), async (value, torn) => {
      const text = JSON.stringify(value) ?? 'null';
      await writeFile(join(configDir, 'settings.json'), torn ? text.slice(0, Math.max(0, text.length - 1)) : text);
      const state = await claudePermissionState({ transcriptMode: null, transcriptPath: '/t', cwd: project, env: { CLAUDE_CONFIG_DIR: configDir, HOME: '/home/u' } });
      expect(typeof state.mode).toBe('string');
      for (const rule of state.rules) expect(rule).toMatch(/^(allow|deny|root):./s);
      expect(state.rules).toContain(`root:${project}`);
    }),
    { numRuns: 300 },
  );
});
