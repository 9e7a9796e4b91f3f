import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import { MAX_IMPORTED_TASKS, MAX_TASK_NOTES } from './claude-tasks.js';
import type { LogLine } from './lines.js';
import { isRecord, str } from './text.js';

/** Codex's unified exec answers "Process running with session ID 12" while the command still runs. */
const RUNNING = /Process running with session ID\s+(\d+)/i;
const EXITED = /Process exited with code\s+(-?\d+)/i;
const COMMAND_MAX_CHARS = 8_000;

function parseArgs(raw: unknown): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isRecord(value) ? value : {};
  } catch {
    return {};
  }
}

/** An output is a string, or (older Codex) a JSON string {"output", "metadata"}. */
function outputText(raw: unknown): string {
  if (typeof raw !== 'string') return isRecord(raw) && typeof raw.content === 'string' ? raw.content : '';
  const parsed = parseArgs(raw);
  return typeof parsed.output === 'string' ? parsed.output : raw;
}

function commandOf(args: Record<string, unknown>): string {
  const cmd = args.cmd ?? args.command;
  const text = Array.isArray(cmd) ? cmd.map(String).join(' ') : typeof cmd === 'string' ? cmd : '';
  return text.slice(0, COMMAND_MAX_CHARS);
}

interface Pending {
  tool: 'exec' | 'stdin';
  command?: string;
  cwd?: string;
  sessionId?: string;
}

/**
 * Finds the long-running exec sessions of a Codex rollout: an `exec_command` whose output says the
 * process is still running (with its session id), followed through later `write_stdin` calls to
 * that session until one reports the exit code. A rollout records no pid: a session last seen
 * running is `running` with `pid: null`, which the target shows as unverifiable, not as running.
 */
export class CodexTaskScanner {
  private readonly pending = new Map<string, Pending>();
  private readonly tasks = new Map<string, SessionTaskSummary>();
  private cwd: string | undefined;
  dropped = 0;

  feed(line: LogLine): void {
    const v = line.value;
    if (line.broken || !isRecord(v) || !isRecord(v.payload)) return;
    const p = v.payload;
    if (v.type === 'turn_context' || v.type === 'session_meta') {
      this.cwd = str(p.cwd) ?? this.cwd;
      return;
    }
    if (v.type !== 'response_item') return;
    const callId = str(p.call_id);
    if (!callId) return;
    if (p.type === 'function_call') {
      const args = parseArgs(p.arguments);
      if (p.name === 'exec_command') this.pending.set(callId, { tool: 'exec', command: commandOf(args), cwd: str(args.workdir) ?? this.cwd });
      else if (p.name === 'write_stdin') this.pending.set(callId, { tool: 'stdin', sessionId: args.session_id !== undefined ? String(args.session_id) : undefined });
      return;
    }
    if (p.type !== 'function_call_output') return;
    const call = this.pending.get(callId);
    if (!call) return;
    this.pending.delete(callId);
    const out = outputText(p.output);
    const running = RUNNING.exec(out)?.[1];
    const exited = EXITED.exec(out)?.[1];
    const at = str(v.timestamp);
    if (call.tool === 'exec') {
      if (running === undefined) return; // finished within the call: an ordinary tool call, not a task
      if (!this.tasks.has(running) && this.tasks.size >= MAX_IMPORTED_TASKS) {
        this.dropped += 1;
        return;
      }
      this.tasks.set(running, {
        id: `codex-exec-${running}`,
        kind: 'exec-session',
        command: call.command ?? '',
        pid: null,
        port: null,
        log: null,
        recoverable: false,
        state: 'running',
        origin: 'codex',
        ...(call.cwd ? { cwd: call.cwd } : {}),
        notes: [],
      });
      return;
    }
    const task = call.sessionId !== undefined ? this.tasks.get(call.sessionId) : undefined;
    if (!task) return;
    if (exited !== undefined) {
      task.state = Number(exited) === 0 ? 'exited' : 'failed';
      task.notes = [...(task.notes ?? []), `exited with code ${exited}${at ? ` at ${at}` : ''}`].slice(-MAX_TASK_NOTES);
    } else if (running !== undefined) {
      task.notes = [...(task.notes ?? []), `still running${at ? ` at ${at}` : ''}`].slice(-MAX_TASK_NOTES);
    }
  }

  result(): SessionTaskSummary[] {
    return [...this.tasks.values()];
  }
}
