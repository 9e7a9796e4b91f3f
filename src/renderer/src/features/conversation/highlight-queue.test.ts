import { describe, expect, it } from 'vitest';
import { whenQuiet } from './highlight-queue';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('whenQuiet', () => {
  it('a block cancelled while the timer waits is skipped without an error; the next one runs', async () => {
    const ran: string[] = [];
    const cancel = whenQuiet(async () => {
      ran.push('cancelled');
    });
    cancel(); // scrolled away before the quiet moment came
    await tick(30);
    expect(ran).toEqual([]);
    whenQuiet(async () => {
      ran.push('shown');
    });
    await tick(30);
    expect(ran).toEqual(['shown']);
  });

  it('runs queued jobs one after another, in order', async () => {
    const ran: number[] = [];
    for (const n of [1, 2, 3]) whenQuiet(async () => void ran.push(n));
    await tick(60);
    expect(ran).toEqual([1, 2, 3]);
  });
});
