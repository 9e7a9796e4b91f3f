import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { Option, type Command } from 'commander';
import { resolveDataDir } from '../../core/paths.js';
import { connectEndpoint } from '../../core/transport/client.js';
import { loadOrCreateToken } from '../../core/transport/endpoint.js';
import { desktopEndpoint } from '../../core/transport/forwarded-endpoint.js';
import type { Answer } from '../../core/transport/types.js';
import { isValidId, newId } from '../../shared/ids.js';
import { MAX_LOG_LINES, type TaskView } from '../../shared/tasks.js';
import { createOutput, EXIT, type Output } from '../output.js';

/**
 * `baton task …`: background tasks for terminals and agents, through the running Baton host.
 * Exit codes: 0 done, 1 failure (including "no such task": never an empty success), 2 usage,
 * 3 stop (a heartbeat or write was refused: the task was orphaned, terminated or finished —
 * stop working on it). A shell agent can loop: `while baton task heartbeat ID --epoch E; do …`.
 */
export const TASK_EXIT = { ...EXIT, stop: 3 } as const;
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 15_000;
const STOP_CODES = new Set(['STALE_EPOCH', 'FINISHED']);

interface Common {
  json?: boolean;
  /** --relay: the task lives in the relay's KV bucket (tasks across devices). */
  relay?: boolean;
}

async function call(method: string, params: unknown, viaRelay = false): Promise<Answer> {
  const dataDir = resolveDataDir();
  if (viaRelay) {
    // Across devices (issue 13): the task lives in the relay's KV bucket, not with the local host.
    const { callRelayTask } = await import('../../core/relay/relay-task-methods.js');
    return callRelayTask(dataDir, method, params as Record<string, unknown>);
  }
  const { endpoint } = desktopEndpoint(dataDir); // the laptop's, through baton ssh (issue 22)
  let token: Buffer;
  try {
    token = await loadOrCreateToken(endpoint.tokenPath);
  } catch (error) {
    return { ok: false, code: 'NO_TARGET', message: `cannot read the Baton token: ${(error as Error).message}` };
  }
  let client;
  try {
    client = await connectEndpoint({ endpoint, token, timeoutMs: CONNECT_TIMEOUT_MS });
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'NO_TARGET', message: `Baton is not reachable: ${(error as Error).message}` };
  }
  try {
    return await client.request(method, params, { timeoutMs: REQUEST_TIMEOUT_MS });
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? 'IO_ERROR', message: (error as Error).message };
  } finally {
    client.close();
  }
}

function finish(out: Output, command: string, answer: Answer, human: (a: Answer) => string): number {
  if (answer.ok) {
    const { ok: _ok, ...rest } = answer;
    out.result(command, rest, () => human(answer));
    return TASK_EXIT.ok;
  }
  const { ok: _ok, code, message, ...rest } = answer;
  out.problem(command, String(code), String(message), rest);
  return STOP_CODES.has(String(code)) || answer.stop === true ? TASK_EXIT.stop : TASK_EXIT.failure;
}

function usage(out: Output, command: string, message: string): number {
  out.problem(command, 'BAD_ARGUMENT', message);
  return TASK_EXIT.usage;
}

function intOption(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : null;
}

/** A stable id for "this terminal", so a retried `result` gets its own receipt back. */
function defaultClientId(): string {
  const fromEnv = process.env.BATON_CLIENT_ID;
  if (fromEnv && isValidId(fromEnv)) return fromEnv;
  return `term-${hostname().replace(/[^A-Za-z0-9._-]/g, '') || 'host'}-${process.ppid}`;
}

async function tail(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return text.split('\n').filter((l, i, all) => i < all.length - 1 || l !== '').slice(-MAX_LOG_LINES);
}

function describe(view: TaskView): string {
  const left = view.leaseRemainingMs === null ? '' : ` lease ${Math.max(0, Math.round(view.leaseRemainingMs / 1000))} s`;
  return `${view.record.id}  ${view.state.padEnd(9)} ${view.record.kind}  ${view.record.command}${left}`;
}

export function registerTask(program: Command): void {
  const task = program.command('task').description('background tasks with leases (register, heartbeat, complete, result, list)');

  task
    .command('register')
    .description('register a background task; prints its id and epoch')
    .requiredOption('--command <command>', 'the command the task runs')
    .option('--id <id>', 'task id (choose it yourself so a retry after a crash lands on the same task)')
    .option('--kind <kind>', 'kind of task (dev-server, build, watcher, …)', 'process')
    .option('--pid <pid>', 'pid of the process, so it can be checked and terminated')
    .option('--port <port>', 'port it listens on')
    .option('--log <path>', 'its log file')
    .option('--session <id>', 'the Baton session it belongs to')
    .option('--recoverable', 'it can survive a handoff (its agent keeps renewing the lease)', false)
    .option('--ttl <ms>', 'lease length in milliseconds (heartbeat every third of it)')
    .option('--relay', 'the task lives on the configured relay, shared with paired devices')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: Common & { command: string; id?: string; kind: string; pid?: string; port?: string; log?: string; session?: string; recoverable: boolean; ttl?: string }) => {
      const out = createOutput(!!flags.json);
      const [pid, port, ttl] = [intOption(flags.pid), intOption(flags.port), intOption(flags.ttl)];
      if (pid === null || port === null || ttl === null) return void (process.exitCode = usage(out, 'task register', '--pid, --port and --ttl must be whole numbers'));
      const id = flags.id ?? newId('task-');
      if (!isValidId(id)) return void (process.exitCode = usage(out, 'task register', `--id "${id}" is not a valid id`));
      const answer = await call('task.register', {
        id,
        kind: flags.kind,
        command: flags.command,
        pid: pid ?? null,
        port: port ?? null,
        logPath: flags.log ?? null,
        sessionId: flags.session ?? null,
        recoverable: flags.recoverable,
        ...(ttl !== undefined ? { leaseTtlMs: ttl } : {}),
      }, flags.relay);
      process.exitCode = finish(out, 'task register', answer, (a) => `${String(a.taskId)} epoch ${String(a.epoch)}: heartbeat every ${String(a.heartbeatEveryMs)} ms${a.duplicate ? ' (already registered)' : ''}`);
    });

  task
    .command('heartbeat <id>')
    .description('renew the lease; exit 3 means stop working on the task')
    .requiredOption('--epoch <n>', 'the epoch register printed')
    .option('--revision <n>', 'only if the task is still at this revision (compare-and-swap)')
    .option('--relay', 'the task lives on the configured relay, shared with paired devices')
    .option('--json', 'print one versioned JSON object')
    .action(async (id: string, flags: Common & { epoch: string; revision?: string }) => {
      const out = createOutput(!!flags.json);
      const [epoch, revision] = [intOption(flags.epoch), intOption(flags.revision)];
      if (!epoch || revision === null) return void (process.exitCode = usage(out, 'task heartbeat', '--epoch (and --revision) must be whole numbers'));
      const answer = await call('task.heartbeat', { id, epoch, ...(revision !== undefined ? { expectedRevision: revision } : {}) }, flags.relay);
      process.exitCode = finish(out, 'task heartbeat', answer, (a) => `lease renewed until ${String(a.leaseExpiresAt)}`);
    });

  task
    .command('complete <id>')
    .description('record the outcome (once; a retry with the same outcome is answered the same)')
    .requiredOption('--epoch <n>', 'the epoch register printed')
    .addOption(new Option('--status <status>', 'completed or failed').choices(['completed', 'failed']).default('completed'))
    .option('--exit-code <n>', 'the exit code')
    .option('--log-tail <file>', `keep the last ${MAX_LOG_LINES} lines of this log with the outcome`)
    .option('--result <json>', 'a small JSON result')
    .option('--reason <text>', 'why it failed')
    .option('--revision <n>', 'only if the task is still at this revision (compare-and-swap)')
    .option('--relay', 'the task lives on the configured relay, shared with paired devices')
    .option('--json', 'print one versioned JSON object')
    .action(async (id: string, flags: Common & { epoch: string; status: 'completed' | 'failed'; exitCode?: string; logTail?: string; result?: string; reason?: string; revision?: string }) => {
      const out = createOutput(!!flags.json);
      const [epoch, exitCode, revision] = [intOption(flags.epoch), intOption(flags.exitCode), intOption(flags.revision)];
      if (!epoch || exitCode === null || revision === null) return void (process.exitCode = usage(out, 'task complete', '--epoch, --exit-code and --revision must be whole numbers'));
      let result: unknown;
      if (flags.result !== undefined) {
        try {
          result = JSON.parse(flags.result);
        } catch {
          return void (process.exitCode = usage(out, 'task complete', '--result must be JSON'));
        }
      }
      let lastLogLines: string[] = [];
      if (flags.logTail) {
        try {
          lastLogLines = await tail(flags.logTail);
        } catch (error) {
          return void (process.exitCode = usage(out, 'task complete', `cannot read --log-tail ${flags.logTail}: ${(error as Error).message}`));
        }
      }
      const answer = await call('task.complete', {
        id,
        epoch,
        status: flags.status,
        exitCode: exitCode ?? null,
        lastLogLines,
        ...(result !== undefined ? { result } : {}),
        reason: flags.reason ?? null,
        ...(revision !== undefined ? { expectedRevision: revision } : {}),
      }, flags.relay);
      process.exitCode = finish(out, 'task complete', answer, (a) => `${id} ${String(a.state)}${a.duplicate ? ' (already recorded)' : ''}`);
    });

  task
    .command('result <id>')
    .description('read the outcome; delivered once, with a receipt (a retry returns the same receipt)')
    .option('--client <id>', 'who reads it (default: this terminal, or $BATON_CLIENT_ID)')
    .option('--relay', 'the task lives on the configured relay, shared with paired devices')
    .option('--json', 'print one versioned JSON object')
    .action(async (id: string, flags: Common & { client?: string }) => {
      const out = createOutput(!!flags.json);
      const clientId = flags.client ?? defaultClientId();
      if (!isValidId(clientId)) return void (process.exitCode = usage(out, 'task result', `--client "${clientId}" is not a valid id`));
      const answer = await call('task.result', { id, clientId }, flags.relay);
      process.exitCode = finish(out, 'task result', answer, (a) => {
        const o = (a.outcome ?? {}) as { exitCode?: number | null; lastLogLines?: string[]; result?: unknown };
        const lines = [`${id} ${String(a.state)} exit ${String(o.exitCode ?? '-')} receipt ${String(a.receipt)}${a.firstDelivery ? '' : ` (already delivered to ${String(a.deliveredTo)})`}`];
        if (o.result !== undefined) lines.push(JSON.stringify(o.result));
        lines.push(...(o.lastLogLines ?? []));
        return lines.join('\n');
      });
    });

  task
    .command('list')
    .description('every task with its state now')
    .option('--session <id>', 'only this session')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: Common & { session?: string }) => {
      const out = createOutput(!!flags.json);
      const answer = await call('task.list', flags.session ? { sessionId: flags.session } : {});
      process.exitCode = finish(out, 'task list', answer, (a) => ((a.tasks as TaskView[]).map(describe).join('\n') || 'no tasks'));
    });
}
