import { access } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  ClaudeHookInput,
  GenericApproveInput,
  askBecause,
  decisionFromAnswer,
  fromClaudeHook,
  fromGeneric,
  toClaudeHookOutput,
  type BridgeDecision,
  type BridgeRequest,
} from '../../core/approvals/claude-hook.js';
import { resolveDataDir } from '../../core/paths.js';
import { connectEndpoint } from '../../core/transport/client.js';
import { loadOrCreateToken } from '../../core/transport/endpoint.js';
import { desktopEndpoint } from '../../core/transport/forwarded-endpoint.js';
import { resolveRequestHere } from '../../core/ssh/remote-paths.js';
import { DEFAULT_APPROVAL_TIMEOUT_MS } from '../../shared/approvals.js';
import { CLI_JSON_VERSION, EXIT } from '../output.js';
import { readStdin } from '../stdin.js';

/**
 * `baton approve`: ask the Baton desktop to approve one tool call.
 *   --hook claude  Claude Code PreToolUse hook: hook JSON on stdin, hook JSON on stdout, exit 0.
 *   --json         any agent: {tool, input, cwd, sessionId, requestId?} on stdin, one versioned
 *                  JSON object on stdout; exit 0 allow, 10 deny, 11 ask (no decision).
 * Whatever goes wrong (no desktop, bad input, a timeout) the answer is `ask`, so the terminal's
 * own prompt takes over: this command never allows anything on its own. A recorded decision comes
 * back only for the same `tool_use_id` / `requestId`, until that request expires (an expired or
 * already-used high-risk approval is `ask`); without an id every call is a new request.
 */
export const APPROVE_EXIT = { allow: 0, deny: 10, ask: 11 } as const;
/** Hook input is a tool call: a file write can be large, but not unbounded. */
export const MAX_HOOK_INPUT_BYTES = 4 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = 3_000;
/** Time for the answer to travel back after the host's own timeout has denied. */
const ANSWER_MARGIN_MS = 5_000;

interface ApproveFlags {
  hook?: string;
  json?: boolean;
  session?: string;
  wait: string;
}

async function ask(request: BridgeRequest, waitMs: number): Promise<BridgeDecision> {
  const dataDir = resolveDataDir();
  const { endpoint, forwarded } = desktopEndpoint(dataDir); // the laptop's, through baton ssh (issue 22)
  try {
    await access(endpoint.tokenPath); // no token: Baton never ran here; do not create one just to fail
  } catch {
    return askBecause(`Baton has not been started on this machine (no ${endpoint.tokenPath})`);
  }
  let client;
  try {
    client = await connectEndpoint({ endpoint, token: await loadOrCreateToken(endpoint.tokenPath), timeoutMs: CONNECT_TIMEOUT_MS });
  } catch (error) {
    return askBecause(`the Baton desktop is not reachable (${(error as Error).message})`);
  }
  try {
    // Through baton ssh the desktop cannot see this box's files: resolve the paths here first (issue 22).
    const remote = forwarded ? { remote: resolveRequestHere(request) } : {};
    const answer = await client.request('approval.request', { ...request, ...remote, timeoutMs: waitMs }, { timeoutMs: waitMs + ANSWER_MARGIN_MS });
    return decisionFromAnswer(answer, request.requestId);
  } catch (error) {
    return askBecause(`no answer from the Baton desktop (${(error as Error).message})`);
  } finally {
    client.close();
  }
}

async function run(flags: ApproveFlags): Promise<number> {
  const hookMode = flags.hook !== undefined;
  const emit = (d: BridgeDecision): number => {
    if (hookMode) {
      process.stdout.write(`${JSON.stringify(toClaudeHookOutput(d))}\n`);
      return EXIT.ok; // Claude Code reads the JSON only on exit 0
    }
    process.stdout.write(`${JSON.stringify({ version: CLI_JSON_VERSION, command: 'approve', ok: true, decision: d.decision, reason: d.reason, requestId: d.requestId })}\n`);
    return APPROVE_EXIT[d.decision];
  };
  if (hookMode && flags.hook !== 'claude') return emit(askBecause(`--hook ${flags.hook} is not supported (only "claude")`));
  if (!hookMode && !flags.json) {
    process.stderr.write('baton approve: choose --hook claude or --json\n');
    return EXIT.usage;
  }
  const waitSeconds = Number(flags.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds <= 0) return emit(askBecause(`--wait must be a positive number of seconds, got "${flags.wait}"`));

  const text = await readStdin(MAX_HOOK_INPUT_BYTES).catch(() => null);
  if (text === null) return emit(askBecause(`the input on stdin is unreadable or over ${MAX_HOOK_INPUT_BYTES} bytes`));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return emit(askBecause('the input on stdin is not JSON'));
  }
  let request: BridgeRequest;
  const session = flags.session ?? process.env.BATON_SESSION_ID;
  if (hookMode) {
    const parsed = ClaudeHookInput.safeParse(json);
    if (!parsed.success) return emit(askBecause(`the hook input is not a PreToolUse call (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`));
    if (parsed.data.hook_event_name !== 'PreToolUse') return emit(askBecause(`baton approve handles PreToolUse, not ${parsed.data.hook_event_name}`));
    request = fromClaudeHook(parsed.data, session);
  } else {
    const parsed = GenericApproveInput.safeParse(json);
    if (!parsed.success) return emit(askBecause(`the input needs {tool, input, cwd, sessionId} (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`));
    request = fromGeneric(session ? { ...parsed.data, sessionId: session } : parsed.data);
  }
  return emit(await ask(request, Math.round(waitSeconds * 1000)));
}

export function registerApprove(program: Command): void {
  program
    .command('approve')
    .description('ask the Baton desktop to approve a tool call (Claude Code hook, or JSON for other agents)')
    .option('--hook <agent>', 'read a hook call on stdin and answer in its format (supported: claude)')
    .option('--json', 'read {tool, input, cwd, sessionId, requestId?} on stdin, print one JSON object (a decision is replayed only for the same requestId, until it expires)')
    .option('--session <id>', 'the Baton session to file the request under (default: $BATON_SESSION_ID, else the agent\'s session id)')
    .option('--wait <seconds>', 'how long to wait for a person (the desktop denies after that)', String(DEFAULT_APPROVAL_TIMEOUT_MS / 1000))
    .action(async (flags: ApproveFlags) => {
      process.exitCode = await run(flags);
    });
}
