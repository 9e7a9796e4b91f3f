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

/**
 * How long after the first rows the split views are fetched when the person has not touched the
 * page yet. Right after the first rows the page may still be painting more rows, or be reloaded
 * (measured: a preload started at once left ~140 ms of chunk evaluation on the old page that a
 * reload then waited for), so the preload waits for a quiet moment well after the first screen.
 */
export const PRELOAD_DELAY_MS = 3_000;

/** The first input that says the person is about to click something: fetch the views then. */
const PRELOAD_INPUTS = ['pointermove', 'keydown', 'focusin'] as const;

/** What the preload needs of the window (a narrow type so its test can hand in a plain EventTarget). */
export type PreloadHost = Pick<Window, 'setTimeout' | 'clearTimeout' | 'addEventListener' | 'removeEventListener'> & {
  requestIdleCallback?: Window['requestIdleCallback'];
};

/** Windows the preload is scheduled on: once per page. */
const scheduled = new WeakSet<PreloadHost>();

/**
 * Fetch and evaluate every split view once, after the first rows: a later click then renders at
 * once. Started by the first pointer move or key press (the person is about to click), or
 * `PRELOAD_DELAY_MS` after the first rows, whichever comes first, and then in idle time so it
 * never competes with the list's own work. A failed fetch is left to the click, which shows the
 * view's error through React.lazy as before.
 */
export function preloadViews(target: PreloadHost = window, load: ReadonlyArray<() => Promise<unknown>> = Object.values(loaders)): void {
  if (scheduled.has(target)) return;
  scheduled.add(target);
  let started = false;
  const run = (): void => {
    for (const one of load) one().catch(() => undefined);
  };
  const start = (): void => {
    if (started) return;
    started = true;
    target.clearTimeout(timer);
    for (const name of PRELOAD_INPUTS) target.removeEventListener(name, start, true);
    if (typeof target.requestIdleCallback === 'function') target.requestIdleCallback(run, { timeout: 2_000 });
    else target.setTimeout(run, 200);
  };
  const timer = target.setTimeout(start, PRELOAD_DELAY_MS);
  for (const name of PRELOAD_INPUTS) target.addEventListener(name, start, { capture: true, passive: true });
}
