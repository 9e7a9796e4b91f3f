import type { TestContext } from 'vitest';

/** Why a test may skip: it needs a different user than the one running the suite. */
export type NeededUser = 'root' | 'non-root';

export interface UserSkip {
  need: NeededUser;
  reason: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /**
     * Set only by `needsUser`: the one kind of vitest skip CI accepts. scripts/test-summary.js
     * reads it from the JSON report and counts any other skip as a failure.
     */
    userSkip?: UserSkip;
  }
}

const runningAsRoot = () => process.getuid?.() === 0;

/**
 * Skips the test, with its reason recorded in the report, when the running user is not the one it
 * needs (root for chown/mount/setpriv; non-root where root's permission bypass defeats the test).
 */
export function needsUser(ctx: TestContext, need: NeededUser, reason: string): void {
  if ((need === 'root') === runningAsRoot()) return;
  ctx.task.meta.userSkip = { need, reason };
  ctx.skip(`needs ${need === 'root' ? 'root' : 'a non-root user'}: ${reason}`);
}
