import { lazy, type ComponentType } from 'react';

/**
 * The views the first screen does not show (issue 15: the page's start-up). The first screen is the
 * candidate list, its counts and the scan's progress; everything here is opened by a click (a
 * session, a candidate, a panel) or by a locked store, so it is split into its own chunks and the
 * entry chunk only evaluates React, the API and the list. `preloadViews` fetches them once the
 * first rows are painted, so opening one later does not wait for the network.
 */
const loaders = {
  sessionView: () => import('./SessionView'),
  candidatePanel: () => import('../features/agents/CandidatePanel'),
  approvalsPanel: () => import('../features/approvals/ApprovalsPanel'),
  taskPanel: () => import('../features/tasks/TaskPanel'),
  statsPanel: () => import('../features/stats/StatsPanel'),
  devicesPanel: () => import('../features/devices/DevicesPanel'),
  searchPanel: () => import('../features/search/SearchPanel'),
  dataPanel: () => import('../features/lifecycle/DataPanel'),
  unlockScreen: () => import('../features/unlock/UnlockScreen'),
} as const;

/** React.lazy wants a default export; the project uses named exports, so pick the one named. */
function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): M[K] {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<unknown> })) as unknown as M[K];
}

export const SessionView = lazyNamed(loaders.sessionView, 'SessionView');
export const CandidatePanel = lazyNamed(loaders.candidatePanel, 'CandidatePanel');
export const ApprovalsPanel = lazyNamed(loaders.approvalsPanel, 'ApprovalsPanel');
export const TaskPanel = lazyNamed(loaders.taskPanel, 'TaskPanel');
export const StatsPanel = lazyNamed(loaders.statsPanel, 'StatsPanel');
export const DevicesPanel = lazyNamed(loaders.devicesPanel, 'DevicesPanel');
export const SearchPanel = lazyNamed(loaders.searchPanel, 'SearchPanel');
export const DataPanel = lazyNamed(loaders.dataPanel, 'DataPanel');
export const UnlockScreen = lazyNamed(loaders.unlockScreen, 'UnlockScreen');

/** Names of the split views, for the test that holds the entry chunk to the first screen. */
export const LAZY_VIEW_MODULES = Object.keys(loaders) as ReadonlyArray<keyof typeof loaders>;

let preloaded = false;

/**
 * Fetch and evaluate every split view once, after the first rows: a later click then renders at
 * once. Idle time, so it never competes with the list's own work; a failed fetch is left to the
 * click, which shows the view's error through React.lazy as before.
 */
export function preloadViews(): void {
  if (preloaded) return;
  preloaded = true;
  const run = (): void => {
    for (const load of Object.values(loaders)) load().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 2_000 });
  else window.setTimeout(run, 200);
}
