import type { SessionTaskSummary } from '../../shared/session-fields/tasks.js';
import type { LogLine } from './lines.js';
import { isRecord, str } from './text.js';

/** Tools that stop a background shell (their names changed across Claude Code versions). */
const KILL_TOOLS: ReadonlySet<string> = new Set(['KillShell', 'KillBash']);
/** Tools that read a background shell's output and status. */
const OUTPUT_TOOLS: ReadonlySet<string> = new Set(['BashOutput', 'TaskOutput']);
/** Background shells kept per session; more are counted, not listed. */
export const MAX_IMPORTED_TASKS = 200;
/** Notes kept per task (output and kill calls), newest last. */
export const MAX_TASK_NOTES = 20;
const COMMAND_MAX_CHARS = 8_000;

/** "Command running in background with ID: bash_1" (the Bash tool's answer). */
const BACKGROUND_ID = /running in background with ID:\s*([A-Za-z0-9_.-]+)/i;
const STATUS_TAG = /<status>\s*([a-z_]+)\s*<\/status>/i;
const EXIT_TAG = /<exit_code>\s*(-?\d+)\s*<\/exit_code>/i;

interface Pending {
  tool: 'start' | 'kill' | 'output';
  command?: string;
  cwd?: string;
  shellId?: string;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

function shellIdOf(input: Record<string, unknown>): string | undefined {
  return str(input.shell_id) ?? str(input.bash_id) ?? str(input.task_id);
}

/**
 * Finds the background shells of a Claude Code transcript: Bash calls with `run_in_background`,
 * identified by the id the tool answered, followed through later KillShell/KillBash and
 * BashOutput/TaskOutput calls. A transcript never records a pid, so a shell last seen running is
 * `running` here with `pid: null`: the target says it cannot check it, never that it runs.
 */
export class ClaudeTaskScanner {
  private readonly pending = new Map<string, Pending>();
  private readonly tasks = new Map<string, SessionTaskSummary>();
  /** Shells beyond MAX_IMPORTED_TASKS. */
  dropped = 0;

  feed(line: LogLine): void {
    const v = line.value;
    if (line.broken || !isRecord(v) || v.isSidechain === true) return;
    const blocks = isRecord(v.message) && Array.isArray(v.message.content) ? v.message.content : [];
    if (v.type === 'assistant') {
      for (const block of blocks) {
        if (!isRecord(block) || block.type !== 'tool_use' || !isRecord(block.input)) continue;
        const id = str(block.id);
        const name = str(block.name) ?? '';
        if (!id) continue;
        if (name === 'Bash' && block.input.run_in_background === true && typeof block.input.command === 'string') {
          this.pending.set(id, { tool: 'start', command: block.input.command.slice(0, COMMAND_MAX_CHARS), cwd: str(v.cwd) });
        } else if (KILL_TOOLS.has(name)) this.pending.set(id, { tool: 'kill', shellId: shellIdOf(block.input) });
        else if (OUTPUT_TOOLS.has(name)) this.pending.set(id, { tool: 'output', shellId: shellIdOf(block.input) });
      }
      return;
    }
    if (v.type !== 'user') return;
    for (const block of blocks) {
      if (!isRecord(block) || block.type !== 'tool_result') continue;
      const callId = str(block.tool_use_id) ?? '';
      const call = this.pending.get(callId);
      if (!call) continue;
      this.pending.delete(callId);
      const result = isRecord(v.toolUseResult) ? v.toolUseResult : {};
      const body = text(block.content);
      const failed = block.is_error === true;
      if (call.tool === 'start') this.started(callId, call, result, body, failed);
      else this.followUp(call, result, body, failed, str(v.timestamp));
    }
  }

  private started(callId: string, call: Pending, result: Record<string, unknown>, body: string, failed: boolean): void {
    const shellId = str(result.backgroundTaskId) ?? BACKGROUND_ID.exec(body)?.[1] ?? callId;
    if (!this.tasks.has(shellId) && this.tasks.size >= MAX_IMPORTED_TASKS) {
      this.dropped += 1;
      return;
    }
    this.tasks.set(shellId, {
      id: `claude-shell-${shellId}`,
      kind: 'background-shell',
      command: call.command ?? '',
      pid: null,
      port: null,
      log: null,
      recoverable: false,
      state: failed ? 'failed' : 'running',
      origin: 'claude',
      ...(call.cwd ? { cwd: call.cwd } : {}),
      notes: failed ? [`did not start: ${body.slice(0, 200)}`] : [],
    });
  }

  private followUp(call: Pending, result: Record<string, unknown>, body: string, failed: boolean, at: string | undefined): void {
    const task = call.shellId ? this.tasks.get(call.shellId) : undefined;
    if (!task) return;
    const when = at ? ` at ${at}` : '';
    if (call.tool === 'kill') {
      if (failed) this.note(task, `a kill was refused${when}: ${body.slice(0, 200)}`);
      else {
        task.state = 'killed';
        this.note(task, `killed${when}`);
      }
      return;
    }
    const status = str(result.status) ?? STATUS_TAG.exec(body)?.[1];
    const exit = typeof result.exitCode === 'number' ? result.exitCode : EXIT_TAG.exec(body)?.[1];
    if (status === 'running') this.note(task, `still running${when}`);
    else if (status === 'completed' || status === 'failed' || status === 'killed') {
      task.state = status === 'completed' && exit !== undefined && Number(exit) !== 0 ? 'failed' : status;
      this.note(task, `${status}${exit !== undefined ? ` (exit code ${exit})` : ''}${when}`);
    }
  }

  private note(task: SessionTaskSummary, note: string): void {
    task.notes = [...(task.notes ?? []), note].slice(-MAX_TASK_NOTES);
  }

  result(): SessionTaskSummary[] {
    return [...this.tasks.values()];
  }
}
