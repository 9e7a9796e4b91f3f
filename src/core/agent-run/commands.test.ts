import { describe, expect, it } from 'vitest';
import type { SessionDoc } from '../../shared/session.js';
import { defaultBatonCommand } from './baton-command.js';
import { RunRefused, claudeArgs, claudeModeOf } from './claude-command.js';
import { codexArgs, codexPolicyOf } from './codex-command.js';

const base = { externalId: 'abc-123', prompt: '-rf everything', batonCommand: 'baton', batonSessionId: 'imp-1', model: null };
const withPermission = (permission: unknown) => ({ permission }) as unknown as SessionDoc;

describe('claudeArgs', () => {
  it('resumes by id in stream-json with the hook for this run only, in --settings', () => {
    const args = claudeArgs({ ...base, mode: 'default' });
    expect(args.slice(0, 6)).toEqual(['-p', '--resume', 'abc-123', '--output-format', 'stream-json', '--verbose']);
    // A prompt that starts with "-" comes after `--`, never read as a flag.
    expect(args.slice(-2)).toEqual(['--', '-rf everything']);
    const settings = JSON.parse(args[args.indexOf('--settings') + 1]!);
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe('baton approve --hook claude --session imp-1');
    expect(args).toContain('--permission-mode');
    expect(args.join(' ')).not.toMatch(/dangerously|bypass/);
  });

  it.each(['bypassPermissions', 'dontAsk', 'yolo'])('refuses the session mode %s (never bypass, never wider)', (mode) => {
    expect(() => claudeArgs({ ...base, mode })).toThrow(RunRefused);
  });

  it('passes a chosen model, and the recorded mode in the tool’s own words', () => {
    expect(claudeArgs({ ...base, mode: null, model: 'sonnet' }).slice(-4, -2)).toEqual(['--model', 'sonnet']);
    expect(claudeModeOf(withPermission({ mode: 'default', sourceMode: 'acceptEdits', rules: [] }))).toBe('acceptEdits');
    expect(claudeModeOf(withPermission(null))).toBeNull();
  });
});

describe('codexPolicyOf / codexArgs', () => {
  it('keeps the session sandbox and approval policy', () => {
    const policy = codexPolicyOf(withPermission({ mode: 'acceptEdits', sourceMode: 'on-request/workspace-write', rules: [] }));
    expect(policy).toEqual({ sandbox: 'workspace-write', approval: 'on-request' });
    expect(codexArgs({ externalId: 't-1', prompt: '-x', policy, model: null })).toEqual(['exec', 'resume', 't-1', '--json', '-c', 'sandbox_mode="workspace-write"', '-c', 'approval_policy="on-request"', '--', '-x']);
  });

  it('falls back to read-only, and refuses danger-full-access', () => {
    expect(codexPolicyOf(withPermission(null))).toEqual({ sandbox: 'read-only', approval: null });
    expect(() => codexPolicyOf(withPermission({ mode: 'bypassPermissions', sourceMode: 'never/danger-full-access', rules: [] }))).toThrow(RunRefused);
  });
});

describe('defaultBatonCommand', () => {
  it('uses the running CLI when the host is `baton serve`, else baton on PATH, and the override first', () => {
    expect(defaultBatonCommand(['/usr/bin/node', '/opt/baton/bin/baton.js', 'serve'], {}, '/usr/bin/node')).toBe('/usr/bin/node /opt/baton/bin/baton.js');
    expect(defaultBatonCommand(['/opt/Baton/baton', '/opt/Baton/resources/app.asar'], {}, '/opt/Baton/baton')).toBe('baton');
    expect(defaultBatonCommand([], { BATON_HOOK_COMMAND: 'node x.js' })).toBe('node x.js');
  });
});
