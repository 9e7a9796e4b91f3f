import { expect, test } from '../support/fixtures.js';
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeClaudeSession } from '../support/agent-logs.js';
import { BATON_BIN, runBaton } from '../support/cli.js';
import { SessionsPage } from '../pages/sessions-page.js';

const CLAUDE_ID = '5d1e2f30-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** The `!`…`` lines of a Claude Code command file: what Claude Code runs before the model reads it. */
function bashLines(markdown: string): string[] {
  return [...markdown.matchAll(/^!`(.+)`$/gm)].map((m) => m[1]!);
}

/** Runs one line the way Claude Code does: in a shell, in the session's directory. */
function runLine(line: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout }));
  });
}

test.describe('/handoff installed into Claude Code', () => {
  test('the installed command file hands the current Claude Code session to a running baton serve', async ({ page, home, work, launchHost }) => {
    // `work` is the person's HOME: ~/.claude holds their settings and this session's log.
    const root = await realpath(work.path);
    const project = join(root, 'src', 'shop');
    await mkdir(project, { recursive: true });
    await mkdir(join(root, '.claude'), { recursive: true });
    await writeFile(join(root, '.claude', 'settings.json'), '{\n  "permissions": { "allow": ["Bash(npm test)"] },\n  "env": { "FOO": "1" }\n}\n');
    await writeClaudeSession(root, { id: CLAUDE_ID, cwd: project, branch: 'fix/cart', prompt: 'Fix the cart total rounding', answer: 'Using integer cents now.', startedAt: '2026-11-30T09:00:00.000Z' });
    const agentEnv = { HOME: root, CLAUDE_CONFIG_DIR: join(root, '.claude') };
    const host = await launchHost(agentEnv);

    const install = await runBaton(['install', 'claude'], { home: home.path, env: agentEnv });
    expect(install.code, install.stderr).toBe(0);
    const command = await readFile(join(root, '.claude', 'commands', 'handoff.md'), 'utf8');
    expect(command).toContain('allowed-tools: Bash(baton handoff:*)');
    const [line] = bashLines(command);
    expect(line).toMatch(/^baton handoff /); // the allowed-tools rule covers it: no permission prompt

    // `baton` on the PATH of the shell Claude Code starts is the built CLI.
    const bin = join(root, 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'baton'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BATON_BIN)} "$@"\n`);
    await chmod(join(bin, 'baton'), 0o755);
    const env = { ...process.env, ...agentEnv, PATH: `${bin}:${process.env.PATH}`, BATON_HOME: home.path, DISPLAY: '', WAYLAND_DISPLAY: '' };

    // Claude Code substitutes ${CLAUDE_SESSION_ID} before it runs the line.
    const run = await runLine(line!.replaceAll('${CLAUDE_SESSION_ID}', CLAUDE_ID), { cwd: project, env });
    expect(run.code, run.stdout).toBe(0);
    const answer = JSON.parse(run.stdout) as { ok: boolean; category: string; sessionId: string };
    expect(answer).toMatchObject({ ok: true, category: 'accepted' });

    await page.goto(host.url);
    const sessions = new SessionsPage(page);
    await expect(sessions.session(answer.sessionId)).toBeVisible();
    await expect(sessions.session(answer.sessionId)).toContainText('Fix the cart total rounding');
    await sessions.open(answer.sessionId);
    await expect(sessions.messages().filter({ hasText: 'Using integer cents now.' })).toBeVisible();
    await page.screenshot({ path: join('test-results', 'screens', 'install-handoff.png') });

    // A Claude Code without the substitution leaves the id empty: baton refuses, and the fallback
    // the command names (the newest session of this directory) reaches the same session.
    const unsubstituted = await runLine(line!, { cwd: project, env: { ...env, CLAUDE_SESSION_ID: '' } });
    expect(JSON.parse(unsubstituted.stdout)).toMatchObject({ ok: false, message: expect.stringContaining('--from needs exactly one of --session ID or --latest') });
    const fallback = /run `([^`]+)` once/.exec(command)![1]!;
    const again = await runLine(fallback, { cwd: project, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, sessionId: answer.sessionId });
  });
});
