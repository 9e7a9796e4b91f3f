import { describe, expect, it } from 'vitest';
import { createPageRequests } from './page-requests';

describe('page requests', () => {
  it('pages that grow the window stay current until a jump; a jump makes every earlier request stale', () => {
    const requests = createPageRequests();
    const older = requests.grow();
    const newer = requests.grow();
    expect([requests.isCurrent(older), requests.isCurrent(newer)]).toEqual([true, true]);
    const jump = requests.jump();
    expect([requests.isCurrent(older), requests.isCurrent(newer), requests.isCurrent(jump)]).toEqual([false, false, true]);
    // The page asked from the jumped-to window is current; a second jump supersedes the first.
    const after = requests.grow();
    expect(requests.isCurrent(after)).toBe(true);
    const second = requests.jump();
    expect([requests.isCurrent(jump), requests.isCurrent(after), requests.isCurrent(second)]).toEqual([false, false, true]);
  });
});
