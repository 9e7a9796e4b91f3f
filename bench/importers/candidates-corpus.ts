/**
 * The issue-15 corpus: N Claude Code sessions in one project plus N Codex rollouts, each about
 * 20 KB, shaped like the real samples (a prompt, tool calls, results). Written once, reused with
 * --reuse; sessions get distinct mtimes (newest = highest index) so "newest first" is testable.
 *
 *   npx tsx bench/importers/candidates-corpus.ts --home=/tmp/baton-c15/home --claude=10000 --codex=10000
 */
import { randomUUID } from 'node:crypto';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const SESSION_BYTES = 20 * 1024;
const BASE_MS = Date.parse('2026-11-01T00:00:00Z');

function fill(lines: string[], make: (k: number) => string): string {
  let text = lines.join('\n') + '\n';
  for (let k = 0; text.length < SESSION_BYTES; k++) text += make(k) + '\n';
  return text;
}

export function claudeSession(id: string, cwd: string, i: number): string {
  const common = { isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.39', gitBranch: 'main' };
  const ts = (k: number) => new Date(BASE_MS + i * 60_000 + k * 1000).toISOString();
  return fill([JSON.stringify({ parentUuid: null, ...common, type: 'user', message: { role: 'user', content: `Session ${i}: make the build green` }, uuid: `u${i}`, timestamp: ts(0) })], (k) =>
    k % 2 === 0
      ? JSON.stringify({ parentUuid: `u${i}-${k}`, ...common, message: { model: 'claude-opus-4-6', id: `msg_${i}_${k}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: 'I ran the tests; one case fails in the parser.' }] }, type: 'assistant', uuid: `a${i}-${k}`, timestamp: ts(k) })
      : JSON.stringify({ parentUuid: `a${i}-${k}`, ...common, type: 'user', message: { role: 'user', content: [{ tool_use_id: `t${k}`, type: 'tool_result', content: 'ok\n'.repeat(200) }] }, uuid: `u${i}-${k + 1}`, timestamp: ts(k) }),
  );
}

export function codexRollout(id: string, cwd: string, i: number): string {
  const ts = (k: number) => new Date(BASE_MS + i * 60_000 + k * 1000).toISOString();
  const meta = { timestamp: ts(0), type: 'session_meta', payload: { id, timestamp: ts(0), cwd, originator: 'codex_cli_rs', cli_version: '0.77.0', source: 'cli', model_provider: 'openai', git: { branch: 'main' } } };
  const user = { timestamp: ts(1), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Refactor handler ${i}` }] } };
  // Real rollouts record the prompt twice: as a model input and as the user's event. Codex's own
  // picker lists only sessions with the event (its state database's has_user_event).
  const userEvent = { timestamp: ts(1), type: 'event_msg', payload: { type: 'user_message', message: `Refactor handler ${i}`, images: [] } };
  return fill([JSON.stringify(meta), JSON.stringify(user), JSON.stringify(userEvent)], (k) =>
    JSON.stringify(
      k % 2 === 0
        ? { timestamp: ts(k + 2), type: 'response_item', payload: { type: 'function_call_output', call_id: `c${k}`, output: 'test output line\n'.repeat(40) } }
        : { timestamp: ts(k + 2), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done: tests pass.' }] } },
    ),
  );
}

export interface CandidateCorpus {
  claude: string[];
  codex: string[];
}

/** Writes the corpus under `home` (.claude/projects/<one project>, .codex/sessions/YYYY/MM/DD). */
export async function writeCandidateCorpus(home: string, claudeFiles: number, codexFiles: number): Promise<CandidateCorpus> {
  const out: CandidateCorpus = { claude: [], codex: [] };
  const cwd = '/home/dev/project';
  const projectDir = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
  await mkdir(projectDir, { recursive: true });
  for (let i = 0; i < claudeFiles; i++) {
    const id = randomUUID();
    const path = join(projectDir, `${id}.jsonl`);
    await writeFile(path, claudeSession(id, cwd, i));
    const t = new Date(BASE_MS + i * 60_000);
    await utimes(path, t, t);
    out.claude.push(path);
  }
  for (let i = 0; i < codexFiles; i++) {
    const id = randomUUID();
    const day = `2026/11/${String(1 + (i % 28)).padStart(2, '0')}`;
    const dir = join(home, '.codex', 'sessions', day);
    await mkdir(dir, { recursive: true });
    const path = join(dir, `rollout-${day.replace(/\//g, '-')}T10-00-00-${id}.jsonl`);
    await writeFile(path, codexRollout(id, `/home/dev/api-${i % 20}`, i));
    const t = new Date(BASE_MS + i * 60_000 + 30_000);
    await utimes(path, t, t);
    out.codex.push(path);
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const home = args.get('home') ?? '/tmp/baton-c15/home';
  const t0 = performance.now();
  const c = await writeCandidateCorpus(home, Number(args.get('claude') ?? 1000), Number(args.get('codex') ?? 1000));
  console.log(`wrote ${c.claude.length} Claude + ${c.codex.length} Codex sessions under ${home} in ${Math.round(performance.now() - t0)} ms`);
}
