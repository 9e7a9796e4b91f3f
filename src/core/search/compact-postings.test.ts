import { describe, expect, it } from 'vitest';
import { CompactPostings, POSITIONS_MAX, positionStarts } from './compact-postings.js';

/** Each posting of `term` with its positions, read back through `positionStarts`. */
function read(p: CompactPostings, term: string): [number, number[]][] {
  const list = p.postings(term);
  const at = p.positions(term);
  const starts = positionStarts(list);
  return [...list].map((posting, i) => [Math.floor(posting / 256), [...at.subarray(starts[i]!, starts[i]! + (posting % 256))]]);
}

describe('compact postings with positions', () => {
  it('keeps each posting its positions through growth, compaction and a save/load', () => {
    const p = new CompactPostings();
    // Enough docs that both tables grow several times.
    for (let d = 0; d < 300; d++) p.add(new Map([['word', [d % 200, 200 + (d % 50)]], ...(d % 3 === 0 ? [['third', [d % 256]] as [string, number[]]] : [])]));
    for (let d = 0; d < 300; d += 2) p.remove(d);
    const map = p.compact();
    const expectWord = Array.from({ length: 150 }, (_, i) => [i, [(2 * i + 1) % 200, 200 + ((2 * i + 1) % 50)]]);
    expect(read(p, 'word')).toEqual(expectWord);
    expect(read(p, 'third')).toEqual(Array.from({ length: 300 }, (_, d) => d).filter((d) => d % 3 === 0 && d % 2 === 1).map((d) => [map[d], [d % 256]]));
    const loaded = CompactPostings.deserialize(p.serialize());
    expect(read(loaded, 'word')).toEqual(expectWord);
    expect(read(loaded, 'third')).toEqual(read(p, 'third'));
  });

  it('refuses positions that are not ascending bytes, or more than POSITIONS_MAX, naming the term', () => {
    const p = new CompactPostings();
    expect(() => p.add(new Map([['late', [3, 2]]]))).toThrow(/"late" positions must be ascending/);
    expect(() => p.add(new Map([['big', [256]]]))).toThrow(/"big"/);
    expect(() => p.add(new Map([['none', []]]))).toThrow(/"none" has 0 positions/);
    expect(() => p.add(new Map([['many', Array.from({ length: POSITIONS_MAX + 1 }, (_, i) => i)]]))).toThrow(/"many" has 256 positions/);
    expect(p.docCount).toBe(0);
  });

  it('refuses a saved table whose counts and positions disagree', () => {
    const p = new CompactPostings();
    p.add(new Map([['a', [1, 2]]]));
    const data = p.serialize();
    expect(() => CompactPostings.deserialize({ ...data, positions: data.positions.subarray(0, 1) })).toThrow(/positions shorter/);
    expect(() => CompactPostings.deserialize({ ...data, positionLengths: Uint32Array.of(1), positions: data.positions.subarray(0, 1) })).toThrow(/"a" counts 2 positions but holds 1/);
  });

  it('a term whose docs were all removed before a save takes postings again after the load', () => {
    const p = new CompactPostings();
    p.remove(p.add(new Map([['gone', [0]]])));
    p.add(new Map([['kept', [1]]]));
    p.compact();
    const loaded = CompactPostings.deserialize(p.serialize());
    expect(read(loaded, 'gone')).toEqual([]);
    const doc = loaded.add(new Map([['gone', [3, 7]]]));
    expect(read(loaded, 'gone')).toEqual([[doc, [3, 7]]]);
  });
});
