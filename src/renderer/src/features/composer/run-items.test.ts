import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../../shared/agent-run';
import { foldRunEvents, toolSummary, TOOL_SUMMARY_MAX_CHARS } from './run-items';

const started: RunEvent = { kind: 'started', at: '2026-11-30T10:00:00Z', pid: 42, command: 'claude -p …', model: null };

describe('foldRunEvents', () => {
  it('updates a tool card in place when its result arrives', () => {
    const items = foldRunEvents([
      started,
      { kind: 'tool-call', id: 't1', name: 'Bash', input: { command: 'echo hi' } },
      { kind: 'text', id: 'a:0', text: 'between' },
      { kind: 'tool-result', id: 't1', output: 'hi', isError: false },
    ]);
    expect(items).toEqual([
      { kind: 'tool', id: 't1', name: 'Bash', summary: 'echo hi', status: 'done', output: 'hi' },
      { kind: 'text', id: 'a:0', text: 'between' },
    ]);
  });

  it('shows a running card while the call runs, and a failed one for a denial', () => {
    expect(foldRunEvents([{ kind: 'tool-call', id: 't1', name: 'Bash', input: { command: 'rm -rf x' } }])[0]).toMatchObject({ status: 'running', output: null });
    const denied = foldRunEvents([
      { kind: 'tool-call', id: 't1', name: 'Bash', input: { command: 'rm -rf x' } },
      { kind: 'tool-result', id: 't1', output: 'denied in Baton', isError: true },
    ]);
    expect(denied[0]).toMatchObject({ status: 'failed', output: 'denied in Baton' });
  });

  it('ends a call left running when the run finishes, and keeps the exit code and stderr', () => {
    const items = foldRunEvents([
      { kind: 'tool-call', id: 't1', name: 'Bash', input: { command: 'sleep' } },
      { kind: 'finished', at: 'x', exitCode: 1, signal: null, state: 'failed', stderrTail: ['boom'] },
    ]);
    expect(items[0]).toMatchObject({ status: 'failed' });
    expect(items[1]).toEqual({ kind: 'finished', id: 'finished-1', state: 'failed', exitCode: 1, signal: null, stderrTail: ['boom'] });
  });

  it('keeps a result whose call it never saw (the window opened mid-run)', () => {
    expect(foldRunEvents([{ kind: 'tool-result', id: 'tX', output: 'late', isError: false }])).toEqual([
      { kind: 'tool', id: 'tX', name: 'tool', summary: '', status: 'done', output: 'late' },
    ]);
  });
});

it('keeps one files item, updated in place with every path so far', () => {
  const items = foldRunEvents([
    { kind: 'files', paths: ['a.txt'], more: 0 },
    { kind: 'text', id: 't', text: 'x' },
    { kind: 'files', paths: ['a.txt', 'b.txt'], more: 3 },
  ]);
  expect(items).toEqual([
    { kind: 'files', id: 'files', paths: ['a.txt', 'b.txt'], more: 3 },
    { kind: 'text', id: 't', text: 'x' },
  ]);
});

describe('toolSummary', () => {
  it('names the command, file or url, and clips long ones', () => {
    expect(toolSummary({ command: 'ls', description: 'x' })).toBe('ls');
    expect(toolSummary({ file_path: '/a/b.ts' })).toBe('/a/b.ts');
    expect(toolSummary({ other: 1 })).toBe('{"other":1}');
    expect(toolSummary({ command: 'x'.repeat(500) })).toHaveLength(TOOL_SUMMARY_MAX_CHARS);
  });
});
