import type { CarriedTaskState, CarriedTaskView } from '../../shared/carried-tasks.js';
import { shellQuote } from '../../shared/agents.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import type { TaskView } from '../../shared/tasks.js';
import { toSessionTasks } from './manifest-tasks.js';

const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed', 'killed', 'exited']);

/** Is a process with this pid alive here? null when this host cannot tell (no pid). */
export function pidAlive(pid: number | null | undefined): boolean | null {
  if (pid === null || pid === undefined) return null;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else — alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `cd '<dir>' && <command>`: the exact command to start the task again on this machine. */
export function restartCommandOf(task: SessionTaskSummary, fallbackCwd: string): string {
  return `cd ${shellQuote(task.cwd ?? fallbackCwd)} && ${task.command}`;
}

function shownStateOf(task: SessionTaskSummary, view: TaskView | undefined, alive: boolean | null): CarriedTaskState {
  if (view) return view.state;
  if (FINISHED.has(task.state)) return task.state as CarriedTaskState;
  if (alive === false) return 'stale';
  // From a transcript: no pid to check, so never shown as running.
  return alive === true ? 'running' : 'unverified';
}

/**
 * The target's view of every task a session carries (ARCHITECTURE.md §1, tool execution): the
 * registered ones with their live state, and those from an imported log, none dropped. Each
 * unfinished task that cannot keep running on its own gets "terminate" and "restart here" with
 * the exact restart command.
 */
export function carriedTasksOf(session: SessionDoc, registered: readonly TaskView[]): CarriedTaskView[] {
  const byId = new Map(registered.map((v) => [v.record.id, v]));
  const summaries = [...(session.tasks ?? [])];
  for (const extra of toSessionTasks(registered.filter((v) => !summaries.some((t) => t.id === v.record.id)))) summaries.push(extra);
  const cwd = session.gitRoot ?? session.cwd;
  return summaries.map((summary) => {
    const view = byId.get(summary.id);
    const task = view ? { ...summary, ...toSessionTasks([view])[0]!, cwd: summary.cwd } : summary;
    const alive = view ? view.processAlive : pidAlive(task.pid);
    const shownState = shownStateOf(task, view, alive);
    const finished = FINISHED.has(shownState);
    const canTerminate = !finished && view !== undefined && task.pid !== null && task.pid !== undefined && alive !== false;
    let recommendation: CarriedTaskView['recommendation'];
    if (finished) recommendation = { actions: ['keep'], prompt: `It is ${shownState}; nothing runs any more.`, restartCommand: null };
    else if (task.recoverable && shownState === 'running') recommendation = { actions: ['keep'], prompt: 'It keeps running; its agent renews its lease.', restartCommand: restartCommandOf(task, cwd) };
    else {
      const prompt =
        shownState === 'unverified'
          ? `Last seen running in the ${task.origin === 'codex' ? 'Codex rollout' : 'Claude Code transcript'}; Baton cannot see its process from here. If it still runs, stop it in that terminal; restart it here if you need it.`
          : shownState === 'running'
            ? 'It cannot move with the session: terminate it, or restart it here.'
            : 'Its process is gone: restart it here if you still need it.';
      recommendation = { actions: canTerminate ? ['terminate', 'restart'] : ['restart'], prompt, restartCommand: restartCommandOf(task, cwd) };
    }
    return { task, shownState, processAlive: alive, canTerminate, recommendation };
  });
}
