import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { RUN_EVENTS_KEPT, RUN_STDERR_LINES, type ComposerStatus, type RunEvent, type RunView } from '../../shared/agent-run.js';
import type { SessionDoc } from '../../shared/session.js';
import type { SessionStore } from '../store/types.js';
import type { TaskService } from '../tasks/index.js';
import { processStartTime } from '../tasks/process-start-time.js';
import { locateAgent } from './agent-locate.js';
import { onPath } from '../install/on-path.js';
import { CLAUDE_MODEL_ALIASES, RunRefused, claudeArgs, claudeModeOf } from './claude-command.js';
import { parseClaudeStreamLine } from './claude-stream.js';
import { CODEX_APPROVAL_GAP, codexArgs, codexPolicyOf } from './codex-command.js';
import { parseCodexStreamLine } from './codex-stream.js';
import { stopStartedProcess } from './stop-process.js';
import { syncAgentLog } from './sync-agent-log.js';
import { watchRunFiles } from './run-files.js';
import { captureRunBaseline } from './run-baseline.js';
import { tailCodexRollout } from './codex-rollout-tools.js';
import { stat } from 'node:fs/promises';
import { WATCH_DEBOUNCE_MS } from '../watch/file-watcher.js';

/** Task kind of a desktop run, so a restarted host recognises the runs a previous one left. */
export const AGENT_RUN_TASK_KIND = 'agent-run';
/** Lease of a run's task; the runner heartbeats every third of it. */
export const AGENT_RUN_LEASE_MS = 15_000;
/** Who holds the baton while the desktop continues a session. */
export const DESKTOP_HOLDER = 'desktop';
/** How long the run waits for the agent's pipes to close after it exited. */
export const PIPE_DRAIN_MS = 2_000;
/** Wait after the agent exits for the tree watcher's last batch (two debounce windows). */
export const RUN_FILES_SETTLE_MS = 2 * WATCH_DEBOUNCE_MS;

export interface AgentRunnerOptions {
  store: SessionStore;
  tasks: TaskService;
  dataDir: string;
  /** How the approval hook calls Baton (`"<node>" "<bin/baton.js>"`, or `baton` on PATH). */
  batonCommand: string;
  /** The agents' environment (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME …); default process.env. */
  env?: NodeJS.ProcessEnv;
}

export type RunListener = (sessionId: string, run: RunView, event: RunEvent) => void;

export interface AgentRunner {
  status(sessionId: string): Promise<ComposerStatus>;
  /** Starts a run, or queues the follow-up when one is going (one run at a time per session). */
  send(request: { sessionId: string; prompt: string; model?: string }): Promise<ComposerStatus>;
  stop(sessionId: string): Promise<ComposerStatus>;
  /** "Continue in terminal": hands the baton back to the terminal. */
  handBack(sessionId: string): Promise<SessionDoc>;
  onEvent(listener: RunListener): () => void;
  /** Marks runs a previous host left behind as failed (never running). Returns their task ids. */
  recoverLeftovers(): Promise<string[]>;
  /** Stops every run this host started (or leaves them, marked as orphans, when `leaveRunning`). */
  close(options?: { leaveRunning?: boolean }): Promise<void>;
}

interface LiveRun {
  view: RunView;
  child: ChildProcess;
  pid: number;
  startTime: string;
  epoch: number;
  stderr: string[];
  exited: Promise<void>;
  stopRequested: boolean;
  heartbeat: NodeJS.Timeout;
  /** Resolves once the ended run is recorded (task completed, log synced) and no longer live. */
  settled: Promise<void>;
}

const noConnection = { signal: new AbortController().signal };

export function createAgentRunner(options: AgentRunnerOptions): AgentRunner {
  const env = options.env ?? process.env;
  const emitter = new EventEmitter();
  const live = new Map<string, LiveRun>();
  /** The last run of each session (finished ones too), for a window that opens afterwards. */
  const lastRun = new Map<string, RunView>();
  const queued = new Map<string, { prompt: string; model?: string }>();
  let closing = false;

  async function call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = (await options.tasks.methods[method]!({ id: randomUUID(), method, params }, noConnection)) as Record<string, unknown>;
    if (answer.ok !== true) throw Object.assign(new Error(`${method}: ${String(answer.message)}`), { code: answer.code });
    return answer;
  }

  function push(run: RunView, event: RunEvent): void {
    run.events.push(event);
    if (run.events.length > RUN_EVENTS_KEPT) run.events.splice(0, run.events.length - RUN_EVENTS_KEPT);
    emitter.emit('event', run.sessionId, run, event);
  }

  async function describe(sessionId: string): Promise<ComposerStatus> {
    const session = await options.store.getSession(sessionId);
    const tool = session.source.tool;
    const run = live.get(sessionId)?.view ?? lastRun.get(sessionId) ?? null;
    const base = { run, queued: queued.get(sessionId)?.prompt ?? null, model: session.model?.name ?? null };
    if (tool !== 'claude' && tool !== 'codex') {
      return { ...base, available: false, tool: null, reason: 'This session was written in Baton; no agent is behind it to continue it. Continue it in the terminal.', models: [], approvals: '' };
    }
    if (!session.source.externalId) return { ...base, available: false, tool, reason: `This ${tool} session carries no ${tool} session id to resume.`, models: [], approvals: '' };
    if (locateAgent(tool, env) === null) return { ...base, available: false, tool, reason: `${tool} is not installed here (not on PATH, and BATON_${tool.toUpperCase()}_BIN is not set).`, models: [], approvals: '' };
    if (tool === 'codex') {
      try {
        const policy = codexPolicyOf(session);
        return { ...base, available: true, tool, reason: null, models: base.model ? [base.model] : [], approvals: `${CODEX_APPROVAL_GAP} (sandbox ${policy.sandbox}, approval policy ${policy.approval ?? 'Codex’s default'})` };
      } catch (error) {
        return { ...base, available: false, tool, reason: `${(error as Error).message}.`, models: [], approvals: CODEX_APPROVAL_GAP };
      }
    }
    // A hook that cannot start fails open in Claude Code (a non-blocking hook error): no run then.
    if (options.batonCommand === 'baton' && !onPath('baton', env)) {
      return { ...base, available: false, tool, reason: 'The approval hook needs `baton` on PATH (npm link, or install the package); without it Claude Code would run tools unasked.', models: [], approvals: '' };
    }
    const models = [...new Set([...(base.model ? [base.model] : []), ...CLAUDE_MODEL_ALIASES])];
    return { ...base, available: true, tool, reason: null, models, approvals: 'Each Bash, Edit and Write call asks here (Baton\'s PreToolUse hook, for this run only).' };
  }

  async function start(session: SessionDoc, prompt: string, model: string | undefined): Promise<void> {
    const tool = session.source.tool;
    if (tool !== 'claude' && tool !== 'codex') throw new RunRefused(`session ${session.id} has no agent to run`);
    const bin = locateAgent(tool, env);
    if (bin === null || !session.source.externalId) throw new RunRefused(`${tool} cannot run for session ${session.id}`);
    const chosenModel = model ?? null;
    const externalId = session.source.externalId;
    const args =
      tool === 'claude'
        ? claudeArgs({ externalId, prompt, batonCommand: options.batonCommand, batonSessionId: session.id, mode: claudeModeOf(session), model: chosenModel })
        : codexArgs({ externalId, prompt, policy: codexPolicyOf(session), model: chosenModel });
    const parseLine = tool === 'claude' ? parseClaudeStreamLine : parseCodexStreamLine;
    // Continuing in the desktop takes the baton (epoch + 1); the terminal gets it back with handBack.
    const claimed = await options.store.claim(session.id, DESKTOP_HOLDER);
    // The baseline the Changes tab diffs the agent's edits against, taken before the agent starts.
    const baseline = await captureRunBaseline(options.store, claimed).catch((error: Error) => ({ kind: 'failed' as const, reason: error.message }));
    // Codex's tool calls are read from its rollout as it grows, from where it ends now.
    const rollout = tool === 'codex' && session.source.path ? { path: session.source.path, from: (await stat(session.source.path).catch(() => null))?.size ?? 0 } : null;
    const child = spawn(bin, args, {
      cwd: session.cwd,
      env: { ...env, BATON_HOME: options.dataDir, BATON_SESSION_ID: session.id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const spawned = await new Promise<number>((resolve, reject) => {
      child.once('spawn', () => resolve(child.pid!));
      child.once('error', reject);
    });
    const startTime = (await processStartTime(spawned)) ?? '';
    const runId = `run-${randomUUID()}`;
    const taskId = `agent-run-${randomUUID()}`;
    const command = `${tool === 'claude' ? `claude -p … --resume ${externalId}` : `codex exec resume ${externalId} --json …`}${chosenModel ? ` --model ${chosenModel}` : ''}`;
    const view: RunView = { runId, sessionId: session.id, taskId, tool, prompt, model: chosenModel ?? session.model?.name ?? null, state: 'running', events: [] };
    const registered = await call('task.register', { id: taskId, sessionId: session.id, kind: AGENT_RUN_TASK_KIND, command, pid: spawned, recoverable: false, leaseTtlMs: AGENT_RUN_LEASE_MS }).catch(() => null);
    const epoch = typeof registered?.epoch === 'number' ? registered.epoch : 1;
    const heartbeat = setInterval(() => void call('task.heartbeat', { id: taskId, epoch }).catch(() => undefined), AGENT_RUN_LEASE_MS / 3);
    heartbeat.unref();
    let resolveExit!: () => void;
    const exited = new Promise<void>((resolve) => (resolveExit = resolve));
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const run: LiveRun = { view, child, pid: spawned, startTime, epoch, stderr: [], exited, stopRequested: false, heartbeat, settled };
    live.set(session.id, run);
    lastRun.set(session.id, view);
    push(view, { kind: 'started', at: new Date().toISOString(), pid: spawned, command, model: view.model });
    if (baseline.kind === 'failed') push(view, { kind: 'error', message: `the working directory could not be captured, so the Changes tab has no diff for this run: ${baseline.reason}` });
    // The files the agent touches, live, through the tree watcher (the diff view re-reads on them).
    const files = watchRunFiles(session.cwd, (paths, more) => push(view, { kind: 'files', paths, more }));
    const tail = rollout ? tailCodexRollout(rollout.path, rollout.from, (events) => events.forEach((event) => push(view, event))) : null;
    let lineNo = 0;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      for (const event of parseLine(line, ++lineNo)) push(view, event);
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      run.stderr.push(line);
      if (run.stderr.length > RUN_STDERR_LINES) run.stderr.shift();
    });
    // 'exit', then the pipes: a grandchild the agent left (a shell command) may hold stdout open,
    // so the run ends at most PIPE_DRAIN_MS after the agent itself has exited.
    child.once('exit', (code, signal) => {
      resolveExit();
      const drained = new Promise<void>((r) => child.once('close', () => r()));
      void Promise.race([drained, new Promise<void>((r) => setTimeout(r, PIPE_DRAIN_MS))]).then(() => finish(code, signal));
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null): void => {
      clearInterval(heartbeat);
      const state = run.stopRequested ? 'stopped' : code === 0 ? 'completed' : 'failed';
      view.state = state;
      void (async () => {
        // One more debounce window, so the last edits reach the run before the watch closes.
        await new Promise((r) => setTimeout(r, RUN_FILES_SETTLE_MS));
        await files.close();
        await tail?.close();
        const reason = state === 'stopped' ? 'stopped by the person' : state === 'failed' ? `${tool} exited with ${code ?? signal}` : null;
        await call('task.complete', { id: taskId, epoch, status: state === 'completed' ? 'completed' : 'failed', exitCode: code, lastLogLines: run.stderr, reason }).catch(() => undefined);
        try {
          await syncAgentLog(options.store, claimed, env);
        } catch (error) {
          push(view, { kind: 'error', message: `the session could not be updated from ${tool}'s log: ${(error as Error).message}` });
        }
        live.delete(session.id);
        settle();
        push(view, { kind: 'finished', at: new Date().toISOString(), exitCode: code, signal, state, stderrTail: [...run.stderr] });
        const next = queued.get(session.id);
        queued.delete(session.id);
        if (next && !closing) await start(await options.store.getSession(session.id), next.prompt, next.model).catch((error: Error) => push(view, { kind: 'error', message: `the queued follow-up did not start: ${error.message}` }));
      })();
    };
  }

  return {
    status: describe,
    async send({ sessionId, prompt, model }) {
      const status = await describe(sessionId);
      if (!status.available) throw new RunRefused(status.reason ?? 'the composer is off for this session');
      if (live.has(sessionId)) {
        queued.set(sessionId, { prompt, model });
      } else {
        await start(await options.store.getSession(sessionId), prompt, model);
      }
      return describe(sessionId);
    },
    async stop(sessionId) {
      const run = live.get(sessionId);
      queued.delete(sessionId);
      if (run && !run.stopRequested) {
        run.stopRequested = true;
        run.view.state = 'stopping';
        await stopStartedProcess(run.pid, run.startTime, run.exited);
      }
      return describe(sessionId);
    },
    async handBack(sessionId) {
      // A run that has ended but is still being recorded (its log synced as the desktop) is waited for.
      const ending = live.get(sessionId);
      if (ending && ending.view.state !== 'running' && ending.view.state !== 'stopping') await ending.settled;
      if (live.has(sessionId)) throw new RunRefused(`a run is still going in session ${sessionId}; stop it before continuing in the terminal`);
      return options.store.claim(sessionId, 'terminal');
    },
    onEvent(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    async recoverLeftovers() {
      const done: string[] = [];
      for (const view of await options.tasks.list()) {
        const r = view.record;
        if (r.kind !== AGENT_RUN_TASK_KIND || (r.state !== 'running' && r.state !== 'orphaned')) continue;
        const alive = view.processAlive === true;
        const reason = alive ? `the Baton host that started it stopped; its agent (pid ${r.pid}) is still running as an orphan` : 'the Baton host that started it stopped during the run';
        await call('task.complete', { id: r.id, epoch: r.epoch, status: 'failed', exitCode: null, lastLogLines: [], reason }).catch(() => undefined);
        done.push(r.id);
      }
      return done;
    },
    async close({ leaveRunning = false } = {}) {
      closing = true;
      queued.clear();
      for (const run of live.values()) {
        clearInterval(run.heartbeat);
        if (leaveRunning) continue;
        run.stopRequested = true;
        await stopStartedProcess(run.pid, run.startTime, run.exited).catch(() => undefined);
        await run.exited;
      }
      emitter.removeAllListeners();
    },
  };
}
