import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claude, claudeLogPath, writeLog } from '../core/importers/test-fixtures/build-logs.js';

/**
 * Hostile titles, paths and messages through the real CLI (a child process per command): human
 * output must not carry one byte that drives the terminal, and --json must stay exact.
 */
const CLI = join(import.meta.dirname, 'run.ts');
const ESC = '\u001b';
const HOSTILE_TITLE = `${ESC}]0;pwned\u0007${ESC}[2J\u202eevil\nsecond line\u009b31m`;
const HOSTILE_CONTENT = `hello ${ESC}[31mred\n[99] user: forged line\r${ESC}]52;c;Y2xpcGJvYXJk\u0007`;
/** Anything a terminal acts on: C0 except \n, DEL, C1, bidi controls. */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let root: string;
let home: string;
let cwd: string;

function baton(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: '', HOME: root } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let sessionId: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-hostile-'));
  home = join(root, 'data');
  cwd = join(root, `dir${ESC}]0;owned\u0007\nnext`);
  await mkdir(cwd);
  const messages = join(root, 'messages.jsonl');
  await writeFile(messages, `${JSON.stringify({ role: 'user', content: HOSTILE_CONTENT })}\n`);
  const landed = await baton(['handoff', '--dry-run', '--no-launch', '--json', '--cwd', cwd, '--title', HOSTILE_TITLE, '--messages', messages]);
  expect(landed.code, landed.stdout + landed.stderr).toBe(0);
  sessionId = (JSON.parse(landed.stdout) as { sessionId: string }).sessionId;
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('human output is sanitised, --json is exact', () => {
  it('baton list: the title and the path are one inert line each', async () => {
    const human = await baton(['list', '--no-agents']);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(human.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J\\u202eevil\\nsecond line\\x9b31m');
    expect(human.stdout).toContain('dir\\x1b]0;owned\\x07\\nnext');
    expect(human.stdout.split('\n').filter((line) => line.includes(sessionId))).toHaveLength(1);

    const json = await baton(['list', '--no-agents', '--json']);
    const parsed = JSON.parse(json.stdout) as { groups: { cwd: string; sessions: { id: string; title: string }[] }[] };
    const row = parsed.groups.flatMap((g) => g.sessions).find((s) => s.id === sessionId);
    expect(row?.title).toBe(HOSTILE_TITLE);
    expect(parsed.groups.some((g) => g.cwd.endsWith(`dir${ESC}]0;owned\u0007\nnext`))).toBe(true);
  }, 30_000);

  it('baton list: an imported Claude Code title cannot retitle the window or clear the screen', async () => {
    const id = 'eeeeeeee-0000-4000-8000-000000000005';
    const cwd = '/w/imported';
    await writeLog(claudeLogPath(root, cwd, id), [
      claude.user({ uuid: 'u1', cwd, sessionId: id }, `${ESC}]0;retitled${ESC}\\${ESC}[2J${ESC}[3Jimported \u202Etitle`),
      claude.assistant({ uuid: 'a1', parentUuid: 'u1', cwd, sessionId: id }, 'm1', claude.text('ok')),
    ]);
    const human = await baton(['list']);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(human.stdout).toContain('\\x1b]0;retitled\\x1b\\\\x1b[2J\\x1b[3Jimported \\u202etitle');
  }, 30_000);

  it('baton show: title, cwd and message content cannot drive the terminal or forge a line', async () => {
    const human = await baton(['show', sessionId]);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(human.stdout).toContain('[0] user: hello \\x1b[31mred\n    [99] user: forged line\\r\\x1b]52;c;Y2xpcGJvYXJk\\x07');
    expect(human.stdout.split('\n').filter((line) => line.startsWith('['))).toHaveLength(1);

    const json = await baton(['show', sessionId, '--json']);
    const parsed = JSON.parse(json.stdout) as { session: { title: string }; messages: { content: string }[] };
    expect(parsed.session.title).toBe(HOSTILE_TITLE);
    expect(parsed.messages[0]!.content).toBe(HOSTILE_CONTENT);
  }, 30_000);

  it('errors and commander messages echo arguments inertly', async () => {
    const missing = await baton(['show', `nope${ESC}]0;x\u0007`]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).not.toMatch(TERMINAL_CONTROL);
    const unknown = await baton(['list', `--bad${ESC}[2J`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--bad\\x1b[2J');
    expect(unknown.stderr).not.toMatch(TERMINAL_CONTROL);
  }, 30_000);

  it('baton resume prints the hostile session inertly', async () => {
    const human = await baton(['resume', sessionId]);
    expect(human.stdout + human.stderr).not.toMatch(TERMINAL_CONTROL);
  }, 30_000);
});

describe('secrets never reach the disk (real CLI)', () => {
  const token = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
  const awsSecret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzSECRETKEY';

  async function allFiles(dir: string): Promise<string[]> {
    const out: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) out.push(...(await allFiles(path)));
      else if (entry.isFile()) out.push(path);
    }
    return out;
  }

  it('a secret in --title, in content, in an unknown field and deep in tool input is in no file under BATON_HOME', async () => {
    const messages = join(root, 'secret.jsonl');
    let deep: unknown = { env: `AWS_SECRET_ACCESS_KEY=${awsSecret}` };
    for (let i = 0; i < 40; i++) deep = { wrap: deep };
    await writeFile(
      messages,
      [
        { role: 'user', content: `use ${token}`, extraNote: { again: token } },
        { role: 'assistant', content: 'ok', toolCalls: [{ id: 't1', name: 'Bash', input: deep }] },
      ]
        .map((m) => JSON.stringify(m))
        .join('\n'),
    );
    const landed = await baton(['handoff', '--dry-run', '--no-launch', '--json', '--cwd', root, '--title', `deploy with ${token}`, '--messages', messages]);
    expect(landed.code, landed.stdout + landed.stderr).toBe(0);
    const id = (JSON.parse(landed.stdout) as { sessionId: string }).sessionId;
    const files = await allFiles(home);
    const names = files.map((f) => f.slice(home.length));
    expect(names.some((n) => n.endsWith('handoff.json'))).toBe(true);
    expect(names.some((n) => n.endsWith('handoffs.jsonl'))).toBe(true);
    expect(names.some((n) => n.includes('index'))).toBe(true);
    for (const file of files) {
      const text = await readFile(file, 'latin1');
      expect(text.includes(token), file).toBe(false);
      expect(text.includes(awsSecret), file).toBe(false);
    }
    const shown = JSON.parse((await baton(['show', id, '--json'])).stdout) as { session: { title: string; redactions: Record<string, number> } };
    expect(shown.session.title).toBe('deploy with [REDACTED:github]');
    expect(shown.session.redactions.github).toBe(3);
    expect((shown.session.redactions.aws ?? 0) + (shown.session.redactions['aws-secret-key'] ?? 0)).toBe(1);
  }, 60_000);
});
