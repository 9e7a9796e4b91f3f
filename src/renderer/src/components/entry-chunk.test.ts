import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAZY_VIEW_MODULES } from './lazy-views';

/**
 * Issue 15 (the page's start-up): the entry chunk evaluates only what the first screen needs. A
 * static import of a split view from anything main.tsx reaches statically would pull it (and its
 * dependencies: Monaco's loader, the markdown renderer, the composer …) back into the entry chunk,
 * silently: the build still passes. This walks the same static import graph Vite bundles into the
 * entry (value imports; `import type` is erased, `import()` starts a chunk) and holds it to that.
 */
const RENDERER = resolve(import.meta.dirname, '..');
const ENTRY = resolve(RENDERER, 'main.tsx');
// A value import or re-export (`import { type A, B } from` counts: esbuild keeps it), or a bare side-effect import.
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'"()]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, resolve(base, 'index.ts'), resolve(base, 'index.tsx')].find((path) => /\.(ts|tsx)$/.test(path) && existsSync(path));
}

function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const target = resolveLocal(file, match[1]!);
      if (target !== undefined) stack.push(target);
    }
  }
  return seen;
}

const rel = (files: Set<string>): string[] => [...files].map((file) => relative(RENDERER, file)).sort();

describe('the entry chunk', () => {
  const entry = rel(staticGraph(ENTRY));

  it('reaches the first screen: the app, the candidate list and the API', () => {
    expect(entry).toEqual(expect.arrayContaining(['components/App.tsx', 'components/SessionsPane.tsx', 'api/create-api.ts', 'features/unlock/LockGate.tsx']));
  });

  it('does not reach a split view or what only a split view uses', () => {
    const split = ['components/SessionView.tsx', 'features/conversation/Conversation.tsx', 'features/composer/Composer.tsx', 'features/workspace/ChangesTab.tsx', 'features/workspace/monaco-diff.ts', 'features/approvals/ApprovalsPanel.tsx', 'features/tasks/TaskPanel.tsx', 'features/search/SearchPanel.tsx', 'features/stats/StatsPanel.tsx', 'features/devices/DevicesPanel.tsx', 'features/lifecycle/DataPanel.tsx', 'features/agents/CandidatePanel.tsx', 'features/unlock/UnlockScreen.tsx'];
    expect(entry.filter((file) => split.includes(file))).toEqual([]);
    expect(LAZY_VIEW_MODULES.length).toBe(9);
  });

  it('the walker sees a static import (held to a file that has one)', () => {
    // Without this the test above would pass on a walker that finds nothing.
    expect(rel(staticGraph(resolve(RENDERER, 'components/SessionView.tsx')))).toContain('features/conversation/Conversation.tsx');
  });
});
