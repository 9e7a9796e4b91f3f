import { describe, expect, it } from 'vitest';
import { hashForTab, tabFromHash } from './use-session-tab';

describe('session tab in the address fragment', () => {
  const reads: Array<[string, string, string | null]> = [
    ['#session=s1&tab=changes', 's1', 'changes'],
    ['#tab=history&session=s1', 's1', 'history'],
    ['#session=s1&tab=changes', 's2', null],
    ['#session=s1&tab=bogus', 's1', null],
    ['#session=s1', 's1', null],
    ['', 's1', null],
  ];
  for (const [hash, id, expected] of reads) {
    it(`reads ${JSON.stringify(hash)} for ${id}`, () => expect(tabFromHash(hash, id)).toBe(expected));
  }

  const writes: Array<[string, 'conversation' | 'changes' | 'history', string]> = [
    ['#session=s1', 'changes', '#session=s1&tab=changes'],
    ['#session=s1&tab=changes', 'history', '#session=s1&tab=history'],
    ['#session=s1&tab=changes', 'conversation', '#session=s1'],
    ['', 'conversation', ''],
  ];
  for (const [hash, tab, expected] of writes) {
    it(`writes ${tab} into ${JSON.stringify(hash)}`, () => expect(hashForTab(hash, tab)).toBe(expected));
  }
});
