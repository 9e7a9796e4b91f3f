import { describe, expect, it } from 'vitest';
import { hashForSelection, selectionFromHash } from './use-selection';

describe('selection in the address fragment', () => {
  const reads: Array<[string, string | null]> = [
    ['', null],
    ['#', null],
    ['#session=abc', 'abc'],
    ['#x=1&session=a.b-c', 'a.b-c'],
    ['#session=', null],
    ['#section-2', null],
  ];
  for (const [hash, expected] of reads) {
    it(`reads ${JSON.stringify(hash)}`, () => expect(selectionFromHash(hash)).toBe(expected));
  }

  const writes: Array<[string, string | null, string]> = [
    ['', 's1', '#session=s1'],
    ['#session=old', 's2', '#session=s2'],
    ['#x=1', 's1', '#x=1&session=s1'],
    ['#session=s1', null, ''],
    ['#x=1&session=s1', null, '#x=1'],
  ];
  for (const [hash, id, expected] of writes) {
    it(`writes ${String(id)} into ${JSON.stringify(hash)}`, () => expect(hashForSelection(hash, id)).toBe(expected));
  }
});
