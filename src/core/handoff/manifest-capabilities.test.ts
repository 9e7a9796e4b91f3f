import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Capability } from '../../shared/manifest.js';
import { DESKTOP_CAPABILITIES, BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { deriveCapabilities, describeMissing, modeAsks } from './manifest-capabilities.js';

describe('deriveCapabilities', () => {
  const none = { changedFiles: 0, pendingApprovals: 0, permissionMode: 'bypassPermissions', tasks: 0 };
  it.each([
    ['nothing beyond the conversation', none, ['conversation']],
    ['workspace changes: a diff viewer and a watcher for drift', { ...none, changedFiles: 3 }, ['conversation', 'diff-viewer', 'file-watcher']],
    ['a pending approval, even when the mode never asks', { ...none, pendingApprovals: 1 }, ['conversation', 'approval-ui']],
    ['a mode that asks', { ...none, permissionMode: 'default' }, ['conversation', 'approval-ui']],
    ['Codex on-request asks even though its Baton mode is acceptEdits', { ...none, permissionMode: 'acceptEdits', sourceMode: 'on-request/workspace-write' }, ['conversation', 'approval-ui']],
    ['Codex never asks', { ...none, permissionMode: 'acceptEdits', sourceMode: 'never/workspace-write' }, ['conversation']],
    ['tasks', { ...none, tasks: 2 }, ['conversation', 'task-panel']],
  ])('%s', (_name, facts, expected) => {
    expect(deriveCapabilities(facts)).toEqual(expected);
  });

  it('always valid capabilities, each once, and both real hosts can show every derived set (fast-check)', () => {
    fc.assert(
      fc.property(fc.nat(5), fc.nat(5), fc.option(fc.constantFrom('plan', 'default', 'acceptEdits', 'bypassPermissions', 'weird')), fc.nat(3), (changedFiles, pendingApprovals, permissionMode, tasks) => {
        const caps = deriveCapabilities({ changedFiles, pendingApprovals, permissionMode, tasks });
        expect(new Set(caps).size).toBe(caps.length);
        for (const c of caps) {
          expect(Capability.safeParse(c).success).toBe(true);
          expect(DESKTOP_CAPABILITIES).toContain(c);
          expect(BROWSER_HOST_CAPABILITIES).toContain(c);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('modeAsks: unknown modes ask; bypassPermissions and never do not', () => {
    expect(modeAsks(undefined)).toBe(true);
    expect(modeAsks('something-new')).toBe(true);
    expect(modeAsks('bypassPermissions')).toBe(false);
    expect(modeAsks('default', 'never/danger-full-access')).toBe(false);
    expect(modeAsks('bypassPermissions', 'unknown/unknown')).toBe(false);
  });

  it('describeMissing names what each missing capability is for', () => {
    expect(describeMissing(['diff-viewer', 'telepathy'])).toBe('diff-viewer — the workspace changes (diff viewer); telepathy');
  });
});
