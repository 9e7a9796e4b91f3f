import { access } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import { deriveGrant } from '../../core/policy/grants.js';
import { assessRisk, initPolicy } from '../../core/policy/risk.js';
import { chooseWorkspaceRoot } from '../../core/policy/workspace-root.js';
import { resolveDataDir } from '../../core/paths.js';
import { openStore } from '../../core/store/index.js';
import { createOutput, EXIT } from '../output.js';
import { readStdin } from '../stdin.js';

/**
 * `baton policy explain`: how Baton's risk policy rates one tool call, and the exact rule "allow
 * for this session" would create (or why none). Reads the same `{tool, input, cwd, sessionId?}`
 * as `baton approve --json`; nothing is queued or sent to the desktop. The workspace root is
 * chosen like the host does: the Baton session's root, else the git root around cwd, else cwd.
 */
export const MAX_POLICY_INPUT_BYTES = 4 * 1024 * 1024;

export const PolicyExplainInput = z.looseObject({
  tool: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cwd: z.string().min(1),
  sessionId: z.string().optional(),
});

/** The Baton session's root, when the session exists in this machine's store; never creates a store. */
async function sessionRoot(sessionId: string | undefined): Promise<string | null> {
  if (!sessionId) return null;
  const dataDir = resolveDataDir();
  try {
    await access(dataDir);
  } catch {
    return null;
  }
  const store = await openStore(dataDir);
  try {
    const doc = await store.getSession(sessionId);
    return doc.gitRoot ?? doc.cwd;
  } catch {
    return null; // not a Baton session (a Claude/Codex id): fall back to git, like the host
  } finally {
    await store.close();
  }
}

async function explain(flags: { json?: boolean }): Promise<number> {
  const out = createOutput(!!flags.json);
  const text = await readStdin(MAX_POLICY_INPUT_BYTES).catch(() => null);
  if (text === null) {
    out.problem('policy', 'BAD_INPUT', `stdin is unreadable or over ${MAX_POLICY_INPUT_BYTES} bytes`);
    return EXIT.usage;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    out.problem('policy', 'BAD_INPUT', `stdin is not JSON (${(error as Error).message})`);
    return EXIT.usage;
  }
  const parsed = PolicyExplainInput.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    out.problem('policy', 'BAD_INPUT', `the input needs {tool, input, cwd, sessionId?} (${issue?.path.join('.') || '(input)'}: ${issue?.message})`);
    return EXIT.usage;
  }
  await initPolicy();
  const { tool, input, cwd, sessionId } = parsed.data;
  const home = homedir();
  const workspace = chooseWorkspaceRoot({ sessionRoot: await sessionRoot(sessionId), cwd, home });
  const ctx = { cwd, workspaceRoot: workspace.root, home };
  const risk = assessRisk({ tool, input }, ctx);
  const grant = deriveGrant({ tool, input }, ctx);
  out.result('policy', { risk, grant, workspace }, () =>
    [
      `risk: ${risk.level}`,
      ...risk.reasons.map((r) => `  - [${r.level}] ${r.rule}: ${r.message}`),
      grant.ok ? `allow for session would grant: ${grant.rule}\n  (${grant.summary})` : `allow for session: refused (${grant.reason})`,
      `workspace: ${workspace.root} (from the ${workspace.source})${workspace.warning ? `\n  warning: ${workspace.warning}` : ''}`,
    ].join('\n'),
  );
  return EXIT.ok;
}

export function registerPolicy(program: Command): void {
  const policy = program.command('policy').description("Baton's risk policy for tool calls");
  policy
    .command('explain')
    .description('rate one tool call ({tool, input, cwd, sessionId?} on stdin) and show the grant "allow for session" would create')
    .option('--json', 'print one versioned JSON object')
    .action(async (flags: { json?: boolean }) => {
      process.exitCode = await explain(flags);
    });
}
