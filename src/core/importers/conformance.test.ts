import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { MessageInput } from '../../shared/message.js';
import { readAgentSession } from './read-session.js';
import { scanAgentSessions } from './scan.js';
import { requireShared, SHARED_DIR } from '../test-support/shared-dir.js';

/**
 * Conformance against REAL sample lines (../shared/fixtures/agent-logs, outside this repo, see its
 * README.md). The samples are read in place and copied only into temp dirs, never into the project.
 * In CI (CI=true) a missing shared/ fails these tests instead of skipping them.
 */
const SAMPLES = join(SHARED_DIR, 'fixtures', 'agent-logs');
const CLAUDE_SAMPLE = join(SAMPLES, 'claude-code-session.sample.jsonl');
const CODEX_SAMPLE = join(SAMPLES, 'codex-rollout.sample.jsonl');

function needSamples(ctx: TestContext): void {
  requireShared(ctx, 'fixtures/agent-logs/README.md', 'fixtures/agent-logs/claude-code-session.sample.jsonl', 'fixtures/agent-logs/codex-rollout.sample.jsonl');
}

type Json = Record<string, any>;
function rawLines(path: string): Json[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'baton-conformance-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('real Claude Code sample (v2.1.39)', () => {
  it('the README describes the lines checked here', (ctx) => {
    needSamples(ctx);
    const readme = readFileSync(join(SAMPLES, 'README.md'), 'utf8');
    for (const fact of ['tool_use', 'tool_result', 'compact_boundary', 'logicalParentUuid', 'dangling parents', 'session_meta', 'function_call_output']) expect(readme).toContain(fact);
  });

  it('pairs the tool_use of line 4 with the tool_result of line 5', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CLAUDE_SAMPLE);
    const use = raw[3]!.message.content[0];
    const result = raw[4]!.message.content[0];
    expect(result.tool_use_id).toBe(use.id);
    const s = await readAgentSession('claude', CLAUDE_SAMPLE, {});
    const carrier = s.messages.find((m) => m.id === raw[3]!.uuid)!;
    expect(carrier.role).toBe('assistant');
    expect(carrier.toolCalls).toEqual([{ id: use.id, name: 'Bash', input: use.input, output: result.content, exitCode: 0 }]);
    // The result line is folded into the call, not a message of its own.
    expect(s.messages.some((m) => m.id === raw[4]!.uuid)).toBe(false);
    expect(s.stats.danglingToolResults).toBe(0);
    for (const m of s.messages) expect(MessageInput.safeParse(m).success).toBe(true);
  });

  it('turns the compact_boundary of line 7 into a system message keeping logicalParentUuid', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CLAUDE_SAMPLE);
    expect(raw[6]).toMatchObject({ type: 'system', subtype: 'compact_boundary', parentUuid: null });
    const s = await readAgentSession('claude', CLAUDE_SAMPLE, {});
    const last = s.messages[s.messages.length - 1]!;
    expect(last).toMatchObject({ role: 'system', id: raw[6]!.uuid, logicalParentUuid: raw[6]!.logicalParentUuid, compaction: true });
    expect(s.stats.compactions).toBe(1);
  });

  it('tolerates the dangling parent of line 2 (and counts it)', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CLAUDE_SAMPLE);
    const firstTwo = join(tmp, 'first-two.jsonl');
    await writeFile(firstTwo, readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    const two = await readAgentSession('claude', firstTwo, {});
    expect(two.stats.danglingParents).toBe(1);
    expect(two.messages).toEqual([{ role: 'user', content: raw[1]!.message.content, id: raw[1]!.uuid, createdAt: raw[1]!.timestamp }]);
    const s = await readAgentSession('claude', CLAUDE_SAMPLE, {});
    expect(s.stats.danglingParents).toBeGreaterThanOrEqual(1);
    expect(s.stats.unknownTypes).toBe(0);
    expect(s).toMatchObject({ cwd: raw[1]!.cwd, branch: 'spotter-dov', cliVersion: '2.1.39', model: 'claude-opus-4-6', permissionMode: 'bypassPermissions', externalId: raw[1]!.sessionId });
    expect(s.title.startsWith('Work on bead spotter-dov.')).toBe(true);
  });

  it('is listed by the scan with the same fingerprint the full read gives', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CLAUDE_SAMPLE);
    const home = join(tmp, 'home');
    const dest = join(home, '.claude', 'projects', '-home-USER-projects-spotter', `${raw[1]!.sessionId}.jsonl`);
    await mkdir(join(dest, '..'), { recursive: true });
    await copyFile(CLAUDE_SAMPLE, dest);
    const { candidates } = await scanAgentSessions({ env: { HOME: home }, source: 'claude' });
    const s = await readAgentSession('claude', raw[1]!.sessionId, { HOME: home });
    expect(candidates).toHaveLength(1);
    expect(candidates[0]).toMatchObject({ externalId: raw[1]!.sessionId, fingerprint: s.fingerprint, messageCount: 3, updatedAt: raw[6]!.timestamp });
  });
});

describe('real Codex sample (0.104.0-alpha.1)', () => {
  it('starts with session_meta and takes id, cwd, version and branch from it', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CODEX_SAMPLE);
    expect(raw[0]!.type).toBe('session_meta');
    const s = await readAgentSession('codex', CODEX_SAMPLE, {});
    expect(s).toMatchObject({
      externalId: raw[0]!.payload.id,
      cwd: raw[0]!.payload.cwd,
      cliVersion: '0.104.0-alpha.1',
      branch: 'main',
      model: 'gpt-5.3-codex',
      permissionMode: 'on-request/workspace-write',
      resumeCommand: `codex resume ${raw[0]!.payload.id}`,
    });
    expect(s.stats).toMatchObject({ lines: 11, unknownTypes: 0, tornLines: 0, reasoningSkipped: 1 });
  });

  it('pairs the exec_command function_call with its output by call_id', async (ctx) => {
    needSamples(ctx);
    const raw = rawLines(CODEX_SAMPLE);
    const call = raw[7]!.payload;
    const output = raw[9]!.payload;
    expect(call).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(output.call_id).toBe(call.call_id);
    const s = await readAgentSession('codex', CODEX_SAMPLE, {});
    const calls = s.messages.flatMap((m) => m.toolCalls ?? []);
    expect(calls).toEqual([{ id: call.call_id, name: 'exec_command', input: call.arguments, output: output.output }]);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.title).toBe(raw[2]!.payload.content[0].text);
    for (const m of s.messages) expect(MessageInput.safeParse(m).success).toBe(true);
  });
});
