/**
 * `baton handoff --messages FILE` through a running host (issue 20, "a hosted handoff"): bin/baton.js
 * tries this small bundle (dist/cli/baton-handoff-fast.cjs) before the handoff bundle. A fresh
 * process that loads the store, zod, the redactor and the landing spent ~165 ms of CPU above Node
 * where the same handoff in a warm process costs 36–60 (bench/README.md, "Twelfth sitting"): here
 * the CLI reads the file and sends its bytes over the authenticated socket, and the host (desktop
 * or `baton serve`, the receiver of the handoff) lands and takes the session with the CLI's own
 * code (src/core/handoff/hosted-handoff.ts). The output and exit code are the full CLI's
 * (handoff-report.ts), so behaviour never depends on which path answered.
 *
 * It declines (the full CLI runs, and lands the session itself) for anything else: other flags,
 * stdin, no host, a forwarded desktop (`baton ssh`), a file that is not a regular file of at most
 * HOSTED_HANDOFF_MAX_BYTES, a cwd that is not a directory, a host that refuses or does not know
 * the request (an older host).
 *
 * A dropped connection after the last part was sent: the host may have landed the session. The
 * request is sent once more on a new connection (the host answers a request it knows with its
 * first answer, or offers the session it finds saved). If that fails too, the full CLI runs with
 * `--land-as ID`, the id this request named: it offers the session the host saved, or lands it
 * under that id; the store refuses a second session of one id, so it never lands twice. A host
 * that does not answer within --timeout plus HOSTED_HANDOFF_LANDING_ALLOWANCE_MS is not asked
 * again: the full CLI runs with `--land-as` at once, and its report says where the session is saved.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { resolveDataDir } from '../core/paths.js';
import { readExistingTokenSync, resolveEndpoint } from '../core/transport/endpoint.js';
import { SSH_ENDPOINT_ENV } from '../core/transport/forwarded-endpoint.js';
import type { Answer, EndpointClient, EndpointInfo } from '../core/transport/types.js';
import { HOSTED_HANDOFF_MAX_BYTES, HOSTED_HANDOFF_METHOD, HOSTED_HANDOFF_PART_BYTES, HOSTED_HANDOFF_PATH_MAX_CHARS, HOSTED_HANDOFF_TITLE_MAX_CHARS } from '../core/handoff/hosted-handoff-request.js';
import { HANDOFF_EXIT_CODE, type HandoffOutcome } from '../core/handoff/outcome.js';
import { markPhase, markPhaseAt, phaseTraceOn } from '../core/perf/phase-trace.js';
import { takeRandom } from '../core/transport/auth.js';
import { newId } from '../shared/ids.js';
import { reportHandoff } from './handoff-report.js';
import { createOutput, EXIT } from './output.js';

/** A host that does not accept the connection this fast is treated as absent: the full CLI runs. */
export const HOSTED_HANDOFF_CONNECT_TIMEOUT_MS = 1_000;
/**
 * The host's answer to the last part waits --timeout (as the full CLI's offer does; default
 * DEFAULT_HANDOFF_TIMEOUT_MS) plus this for the landing, which the full CLI does itself unbounded:
 * a session of up to 1 MiB lands in well under a second. Past it, the full CLI runs with --land-as
 * (it offers what the host saved, or lands it itself) and says where the session is saved.
 */
export const HOSTED_HANDOFF_LANDING_ALLOWANCE_MS = 10_000;
/** `baton handoff`'s --timeout default (src/core/handoff/send.ts DEFAULT_HANDOFF_TIMEOUT_MS; not imported: that module loads the store). */
const DEFAULT_TIMEOUT_SECONDS = 10;

/** When the last part of the request left (performance.now()), for the trace of the host's parts. */
let sentAt: number | undefined;

/** The exit code of a handoff the host answered, or the argv the full CLI runs instead. */
export type FastHandoff = { exitCode: number } | { fallback: string[] };

interface FastFlags {
  messages: string;
  cwd?: string;
  title?: string;
  json: boolean;
  /** --timeout in ms, when given. */
  timeoutMs?: number;
}

const VALUE_FLAGS = new Set(['--messages', '--cwd', '--title', '--timeout']);
const SWITCHES = new Set(['--json', '--no-launch']);

/** The flags of a handoff this path takes, or null (anything else: the full CLI parses and reports it). */
export function fastHandoffFlags(argv: readonly string[]): FastFlags | null {
  const args = argv.slice(2);
  if (args[0] !== 'handoff') return null;
  const seen = new Map<string, string>();
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (seen.has(flag)) return null; // commander keeps the last; the full CLI decides
    if (SWITCHES.has(flag) && eq < 0) seen.set(flag, '');
    else if (VALUE_FLAGS.has(flag)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      // A value that looks like a flag, or an empty one ('' is stdin for --messages): the full CLI.
      if (value === undefined || value === '' || value.startsWith('-')) return null;
      seen.set(flag, value);
    } else return null;
  }
  const messages = seen.get('--messages');
  if (messages === undefined) return null;
  const timeout = seen.get('--timeout');
  // Bounds the wait for the host's answer, as it bounds the full CLI's offer; a bad one is the full CLI's error.
  if (timeout !== undefined && !(Number.isFinite(Number(timeout)) && Number(timeout) >= 0)) return null;
  const cwd = seen.get('--cwd');
  const title = seen.get('--title');
  return { messages, ...(cwd !== undefined ? { cwd } : {}), ...(title !== undefined ? { title } : {}), json: seen.has('--json'), ...(timeout !== undefined ? { timeoutMs: Number(timeout) * 1000 } : {}) };
}

export async function tryFastHandoff(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, landingAllowanceMs = HOSTED_HANDOFF_LANDING_ALLOWANCE_MS): Promise<FastHandoff> {
  markPhase('main');
  const decline: FastHandoff = { fallback: [...argv] };
  const flags = fastHandoffFlags(argv);
  // Through `baton ssh` the desktop is the laptop's: the session's content travels another way.
  // A git environment of this shell's own (GIT_DIR...) is not the host's: the full CLI captures it.
  if (!flags || env[SSH_ENDPOINT_ENV] || env.GIT_DIR !== undefined || env.GIT_WORK_TREE !== undefined) return decline;
  if (flags.title !== undefined && (flags.title.length > HOSTED_HANDOFF_TITLE_MAX_CHARS || flags.title.includes('\0'))) return decline;
  const dataDir = resolveDataDir(env);
  const endpoint = resolveEndpoint(dataDir, env);
  // No socket, no host: decline before reading anything else.
  if (process.platform !== 'win32' && !existsSync(endpoint.address)) return decline;
  markPhase('action');
  const cwd = resolve(flags.cwd ?? process.cwd());
  if (cwd.length > HOSTED_HANDOFF_PATH_MAX_CHARS || flags.messages.length > HOSTED_HANDOFF_PATH_MAX_CHARS || !isDirectory(cwd)) return decline;
  const bytes = heldFile(flags.messages);
  if (bytes === null) return decline;
  const token = tokenOrNull(endpoint);
  if (token === null) return decline;
  markPhase('read');

  // The id's random bytes from the handshake's /dev/urandom pool: node:crypto is never loaded.
  const sessionId = newId('s-', takeRandom);
  const request = { sessionId, cwd, ...(flags.title !== undefined ? { title: flags.title } : {}), source: flags.messages, git: insideGitRepository(cwd), bytes: bytes.length };
  const answerWaitMs = (flags.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000) + landingAllowanceMs;
  // Once the last part may have reached the host, the full CLI runs only under this id.
  const landAs: FastHandoff = { fallback: [...argv, '--land-as', sessionId] };
  let sent = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    const tried = await ask(endpoint, token, request, bytes, answerWaitMs, () => (sent = true));
    if (tried === 'unreachable') return sent ? landAs : decline;
    // A host that did not answer in time would not answer a second request either.
    if (tried === 'stalled') return landAs;
    if (tried === 'lost') continue;
    markPhase('answered');
    traceHostParts(tried);
    const printed = print(tried, flags.json);
    markPhase('done');
    return printed === null ? landAs : { exitCode: printed };
  }
  return landAs;
}

/**
 * One connection: every part in order, the last one's answer. 'unreachable': no connection (nothing
 * sent on it); 'lost': it dropped once the last part was being sent; 'stalled': no answer to the
 * last part within `answerWaitMs`.
 */
async function ask(endpoint: EndpointInfo, token: Buffer, request: Record<string, unknown> & { bytes: number }, bytes: Buffer, answerWaitMs: number, lastSent: () => void): Promise<Answer | 'unreachable' | 'lost' | 'stalled'> {
  let client: EndpointClient;
  try {
    // The socket client (node:net, the handshake) loads only once a socket is there.
    const { connectEndpoint } = await import('../core/transport/client.js');
    client = await connectEndpoint({ endpoint, token, timeoutMs: HOSTED_HANDOFF_CONNECT_TIMEOUT_MS });
  } catch {
    return 'unreachable';
  }
  markPhase('connected');
  const parts = Math.max(1, Math.ceil(bytes.length / HOSTED_HANDOFF_PART_BYTES));
  try {
    for (let part = 0; part < parts; part++) {
      const data = bytes.subarray(part * HOSTED_HANDOFF_PART_BYTES, (part + 1) * HOSTED_HANDOFF_PART_BYTES).toString('base64');
      const last = part === parts - 1;
      if (last) {
        lastSent();
        // Read only for the trace: the `performance` global's first use loads perf_hooks (11 modules).
        if (phaseTraceOn()) sentAt = performance.now();
        markPhase('sent');
      }
      let answer: Answer;
      try {
        answer = await client.request(HOSTED_HANDOFF_METHOD, { ...request, parts, part, data }, { timeoutMs: answerWaitMs });
      } catch (error) {
        // Before the last part the host holds at most parts it drops with the connection.
        if (!last) return 'unreachable';
        return (error as { code?: unknown }).code === 'TIMEOUT' ? 'stalled' : 'lost';
      }
      if (last || !answer.ok) return answer;
    }
    return 'lost'; // not reached: the loop returns at the last part
  } finally {
    client.close();
  }
}

/** The host's parts (ms after the request was whole there) placed after the moment the last part left. */
function traceHostParts(answer: Answer): void {
  if (!phaseTraceOn() || !answer.ok || answer.hostMs === null || typeof answer.hostMs !== 'object') return;
  const sent = sentAt ?? NaN;
  for (const [name, ms] of Object.entries(answer.hostMs as Record<string, unknown>)) if (typeof ms === 'number' && name.startsWith('host-')) markPhaseAt(name, sent + ms);
}

/** Prints the host's answer as the full CLI prints the same outcome; its exit code, or null to let the full CLI run (refused, or not an answer of this request). */
function print(answer: Answer, json: boolean): number | null {
  if (!answer.ok) return null;
  const out = createOutput(json);
  const problem = answer.problem as { code?: unknown; message?: unknown } | undefined;
  if (problem && typeof problem.code === 'string' && typeof problem.message === 'string') {
    out.problem('handoff', problem.code, problem.message);
    return EXIT.usage;
  }
  const outcome = outcomeOf(answer.outcome);
  return outcome ? reportHandoff(out, outcome) : null;
}

/** The host's outcome, checked field by field (it is printed, and names the exit code). */
function outcomeOf(value: unknown): HandoffOutcome | null {
  if (value === null || typeof value !== 'object') return null;
  const o = value as Record<string, unknown>;
  const nullableString = (v: unknown) => v === null || typeof v === 'string';
  if (typeof o.category !== 'string' || !Object.hasOwn(HANDOFF_EXIT_CODE, o.category)) return null;
  if (!nullableString(o.sessionId) || !nullableString(o.handoffId) || !nullableString(o.sessionDir) || typeof o.message !== 'string') return null;
  if (o.durationsMs === null || typeof o.durationsMs !== 'object' || (o.answer !== undefined && (o.answer === null || typeof o.answer !== 'object'))) return null;
  return value as HandoffOutcome;
}

/** Whether a `.git` (directory or file) is found from `dir` upward: a few stats, no git. */
function insideGitRepository(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The token the running host made, or null (none, or not a private 32-byte file: the full CLI reports it). */
function tokenOrNull(endpoint: EndpointInfo): Buffer | null {
  try {
    return readExistingTokenSync(endpoint.tokenPath);
  } catch {
    return null;
  }
}

/**
 * The whole messages file when it is a regular file of at most HOSTED_HANDOFF_MAX_BYTES, else null
 * (also when it grew while read: still being written). Checked before it is opened too: opening a
 * FIFO would wait for a writer.
 */
function heldFile(path: string): Buffer | null {
  if (!isRegularFile(path)) return null;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > HOSTED_HANDOFF_MAX_BYTES) return null;
    // One byte more than its size: a read that fills it is a file still being written.
    const buffer = Buffer.allocUnsafe(stats.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) return buffer.subarray(0, length);
      length += read;
      if (length === buffer.length) return null;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
