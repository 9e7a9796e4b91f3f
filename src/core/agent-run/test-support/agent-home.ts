import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A private world for the real agents in a test: a temporary HOME, CLAUDE_CONFIG_DIR and
 * CODEX_HOME pointing at the stand-in model, so nothing of the person's is read or written.
 */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** A dummy key; Claude Code asks nothing about it because its tail is pre-approved in ~/.claude.json. */
export const DUMMY_ANTHROPIC_KEY = 'sk-ant-baton-test-0000000000000000000000';
export const DUMMY_OPENAI_KEY = 'sk-baton-test-0000000000000000';

export interface AgentBinaries {
  claude: string;
  codex: string;
}

/** The pinned CLIs from the machine's agent cache (scripts/agent-cache.js installs them once; a failed download throws). */
let found: AgentBinaries | null = null;
// Memoized: tests swap HOME for a private one afterwards, and the cache lives under the real HOME.
export function agentBinaries(): AgentBinaries {
  if (found) return found;
  const out = execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'agent-cache.js')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 10 * 60_000 });
  const line = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  if (!line) throw new Error(`scripts/agent-cache.js printed no result: ${out}`);
  found = (JSON.parse(line) as { binaries: AgentBinaries }).binaries;
  return found;
}

export interface AgentHome {
  root: string;
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

export function makeAgentHome(modelUrl: string, binaries: AgentBinaries): AgentHome {
  const root = mkdtempSync(join(tmpdir(), 'baton-agents-'));
  const home = join(root, 'home');
  const claudeDir = join(home, '.claude');
  const codexHome = join(home, '.codex');
  const project = join(root, 'project');
  for (const dir of [home, claudeDir, codexHome, project]) mkdirSync(dir, { recursive: true });
  const claudeJson = JSON.stringify({
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: [DUMMY_ANTHROPIC_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true } },
  });
  writeFileSync(join(home, '.claude.json'), claudeJson);
  writeFileSync(join(claudeDir, '.claude.json'), claudeJson);
  writeFileSync(
    join(codexHome, 'config.toml'),
    ['model = "stand-in"', 'model_provider = "standin"', '', '[model_providers.standin]', 'name = "stand-in"', `base_url = "${modelUrl}/v1"`, 'env_key = "BATON_TEST_OPENAI_KEY"', 'wire_api = "responses"', 'supports_websockets = false', ''].join('\n'),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: claudeDir,
    CODEX_HOME: codexHome,
    ANTHROPIC_API_KEY: DUMMY_ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: modelUrl,
    BATON_TEST_OPENAI_KEY: DUMMY_OPENAI_KEY,
    BATON_CLAUDE_BIN: binaries.claude,
    BATON_CODEX_BIN: binaries.codex,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  return { root, home, project, env };
}

/** A first Claude Code turn, run for real against the stand-in model: the session Baton then imports and continues. */
// Asynchronous: the stand-in model usually runs in the same process and must keep answering.
export async function seedClaudeSession(agent: AgentHome, binaries: AgentBinaries, prompt = 'say hello'): Promise<{ sessionId: string; transcript: string }> {
  const { stdout: out } = await promisify(execFile)(binaries.claude, ['-p', prompt, '--output-format', 'stream-json', '--verbose'], { cwd: agent.project, env: agent.env, encoding: 'utf8', timeout: 60_000 });
  const init = out.split('\n').find((l) => l.includes('"subtype":"init"'));
  if (!init) throw new Error(`claude printed no init line:\n${out.slice(0, 2000)}`);
  const sessionId = (JSON.parse(init) as { session_id: string }).session_id;
  const slug = agent.project.replace(/[^A-Za-z0-9]/g, '-');
  return { sessionId, transcript: join(agent.env.CLAUDE_CONFIG_DIR!, 'projects', slug, `${sessionId}.jsonl`) };
}

/** A first Codex turn, run for real against the stand-in model (in a git repository: Codex refuses untrusted plain directories). */
export async function seedCodexSession(agent: AgentHome, binaries: AgentBinaries, prompt = 'say hello'): Promise<{ sessionId: string; rollout: string }> {
  await promisify(execFile)('git', ['init', '-q', agent.project]);
  const stdout = await runWithClosedStdin(binaries.codex, ['exec', '--json', prompt], agent);
  const started = stdout.split('\n').find((l) => l.includes('"thread.started"'));
  if (!started) throw new Error(`codex printed no thread.started line:\n${stdout.slice(0, 2000)}`);
  const sessionId = (JSON.parse(started) as { thread_id: string }).thread_id;
  const { stdout: found } = await promisify(execFile)('find', [join(agent.env.CODEX_HOME!, 'sessions'), '-name', `*${sessionId}.jsonl`], { encoding: 'utf8' });
  const rollout = found.trim().split('\n')[0];
  if (!rollout) throw new Error(`no Codex rollout for ${sessionId} under ${agent.env.CODEX_HOME}/sessions`);
  return { sessionId, rollout };
}

/** Runs a command with stdin closed (Codex reads stdin until EOF before it starts) and returns its stdout. */
function runWithClosedStdin(bin: string, args: string[], agent: AgentHome): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: agent.project, env: agent.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`))));
  });
}
