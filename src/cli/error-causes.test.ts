import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_MAX_DEPTH } from '../core/handoff/read-message-input.js';

/** Errors through the real CLI: each names its cause, and none quotes a file it was given. */
const CLI = join(import.meta.dirname, 'run.ts');
const SHADOW = 'root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n';

let root: string;
let home: string;

function baton(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: '', HOME: root, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-errors-'));
  home = join(root, 'data');
  await writeFile(join(root, 'shadow'), SHADOW);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('errors say what happened', () => {
  it('tool input nested 5,000 levels is refused by name, not as a failing disk', async () => {
    let input = '{}';
    for (let i = 0; i < 5_000; i++) input = `{"a":${input}}`;
    const file = join(root, 'deep.jsonl');
    await writeFile(file, `{"role":"user","content":"hi"}\n{"role":"assistant","content":"x","toolCalls":[{"id":"t","name":"Bash","input":${input}}]}\n`);
    const run = await baton(['handoff', '--dry-run', '--no-launch', '--cwd', root, '--messages', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`deep.jsonl:2: nested deeper than ${MESSAGE_MAX_DEPTH} levels`);
    expect(run.stderr).not.toMatch(/I\/O error|disk may be failing/);
  }, 30_000);

  it('--messages FILE that is not JSONL never echoes the file', async () => {
    const run = await baton(['handoff', '--dry-run', '--no-launch', '--cwd', root, '--messages', join(root, 'shadow'), '--json']);
    expect(run.code).toBe(2);
    const answer = JSON.parse(run.stdout) as { code: string; message: string };
    expect(answer.code).toBe('BAD_INPUT');
    expect(answer.message).toContain('shadow:1: not valid JSON');
    expect(run.stdout + run.stderr).not.toMatch(/root|\$6\$|saltsalt/);
  }, 30_000);

  it.each(['claude', 'codex'])('--from %s --session FILE refuses a file that is not a session log of the tool, without quoting it', async (tool) => {
    const run = await baton(['handoff', '--from', tool, '--session', join(root, 'shadow'), '--dry-run', '--no-launch', '--json']);
    expect(run.code).toBe(1);
    const answer = JSON.parse(run.stdout) as { ok: boolean; code: string; message: string };
    expect(answer).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(answer.message).toMatch(/does not start like a (Claude Code|Codex) session log/);
    expect(run.stdout + run.stderr).not.toMatch(/root:|\$6\$|saltsalt/);
  }, 30_000);

  it('the data-directory refusal honours --json', async () => {
    await mkdir(join(root, 'real-data'));
    await symlink(join(root, 'real-data'), join(root, 'linked-data'));
    const json = await baton(['list', '--no-agents', '--json'], { BATON_HOME: join(root, 'linked-data') });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ version: 1, command: 'list', ok: false, code: 'UNSAFE_STORE' });
    expect(json.stderr).toBe('');
    const human = await baton(['list', '--no-agents'], { BATON_HOME: join(root, 'linked-data') });
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/symbolic link/);
  }, 30_000);
});
