import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TestContext } from 'vitest';

/** The repository root (this file is src/core/test-support/shared-dir.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * `shared/` beside the repository: CI clones the repo into a fresh folder and puts a read-only copy
 * of shared/ next to it (`<clone>/../shared`), as each worktree has it here.
 */
export const SHARED_DIR = join(REPO_ROOT, '..', 'shared');

/** True when the run is CI's (`.ci/run` exports CI=true), where a missing shared/ is a failure. */
export const inCi = (env: NodeJS.ProcessEnv = process.env): boolean => env.CI === 'true' || env.CI === '1';

export type SharedLookup = { ok: true; paths: string[] } | { ok: false; why: string; fail: boolean };

/** Finds `relativePaths` under shared/; a missing one is a failure in CI and a skip elsewhere. */
export function lookupShared(relativePaths: string[], options: { sharedDir?: string; env?: NodeJS.ProcessEnv } = {}): SharedLookup {
  const dir = options.sharedDir ?? SHARED_DIR;
  const paths = relativePaths.map((p) => join(dir, p));
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length === 0) return { ok: true, paths };
  return { ok: false, why: `shared fixtures missing: ${missing.join(', ')} (expected beside the repository at ${dir})`, fail: inCi(options.env) };
}

/**
 * Returns the absolute paths of `relativePaths` under shared/. When one is missing: in CI the test
 * fails (throws, naming the path); elsewhere it skips with the same sentence, which the test
 * summary still counts as an unexpected skip.
 */
export function requireShared(ctx: TestContext, ...relativePaths: string[]): string[] {
  const found = lookupShared(relativePaths);
  if (found.ok) return found.paths;
  if (found.fail) throw new Error(found.why);
  return ctx.skip(found.why);
}
