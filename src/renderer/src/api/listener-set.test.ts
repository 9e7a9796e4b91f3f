import { describe, expect, it, vi } from 'vitest';
import { ListenerSet } from './listener-set';

describe('ListenerSet', () => {
  it('a throwing listener does not stop the others', () => {
    const set = new ListenerSet<[number]>();
    const heard: number[] = [];
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    set.add(() => {
      throw new Error('boom');
    });
    set.add((value) => heard.push(value));
    set.emit(7);
    expect(heard).toEqual([7]);
    expect(quiet).toHaveBeenCalledTimes(1);
    quiet.mockRestore();
  });

  it('unsubscribing, also during an emit, is safe', () => {
    const set = new ListenerSet<[]>();
    const calls: string[] = [];
    const offB = set.add(() => calls.push('b'));
    set.add(() => {
      calls.push('a');
      offB();
    });
    set.emit();
    set.emit();
    expect(calls).toEqual(['b', 'a', 'a']);
    expect(set.size).toBe(1);
    set.clear();
    expect(set.size).toBe(0);
  });
});
