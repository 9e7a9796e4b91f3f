import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../shared/message';
import { pairToolResults } from './pair-tool-results';

let seq = 0;
const msg = (m: Partial<MessageRecord> & Pick<MessageRecord, 'role'>): MessageRecord => ({ content: '', seq: seq++, id: `m${seq}`, createdAt: '2026-11-30T10:00:00Z', crc: '0', ...m });

describe('pairToolResults', () => {
  it('folds a tool message into the call it answers and leaves it out of the list', () => {
    const call = msg({ role: 'assistant', content: 'Running', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'npm test' } }] });
    const result = msg({ role: 'tool', toolCallId: 'c1', content: 'FAIL one', exitCode: 1 });
    const after = msg({ role: 'assistant', content: 'One failure' });
    const { shown, results } = pairToolResults([call, result, after]);
    expect(shown.map((m) => m.id)).toEqual([call.id, after.id]);
    expect(results.get('c1')).toEqual({ output: 'FAIL one', exitCode: 1, fullOutput: undefined });
  });

  it('keeps a result whose call is on a page not loaded yet, and a second result for the same call', () => {
    const orphan = msg({ role: 'tool', toolCallId: 'gone', content: 'old output' });
    const call = msg({ role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'Read' }] });
    const first = msg({ role: 'tool', toolCallId: 'c2', content: 'a' });
    const second = msg({ role: 'tool', toolCallId: 'c2', content: 'b' });
    const { shown, results } = pairToolResults([orphan, call, first, second]);
    expect(shown.map((m) => m.id)).toEqual([orphan.id, call.id, second.id]);
    expect(results.get('c2')?.output).toBe('a');
  });
});
