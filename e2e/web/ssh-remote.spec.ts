import { spawn } from 'node:child_process';
import { chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect, test } from '../support/fixtures.js';
import { BATON_BIN, REPO_ROOT } from '../support/cli.js';
import { ApprovalsPage } from '../pages/approvals-page.js';
import { SessionsPage } from '../pages/sessions-page.js';
import { SessionViewPage } from '../pages/session-view-page.js';
import { letOthersPass } from '../../src/core/ssh/test-support/let-others-pass.js';
import { freePort, startSshd, type SshdFixture } from '../../src/core/ssh/test-support/sshd-fixture.js';
import { connectEndpoint } from '../../src/core/transport/client.js';
import { resolveEndpoint } from '../../src/core/transport/endpoint.js';

/**
 * Remote machines over SSH (issue 22), end to end: the real `baton serve` and Chromium on the
 * "laptop", a real sshd on a loopback port, and a second Unix user with its own HOME and Baton
 * store standing in for the remote box. The two share no directory: the session, the approval and
 * the answers travel only through the socket `baton ssh` forwards.
 */
const RUN_AS_ROOT = process.getuid?.() === 0;

function writeAs(user: SshdFixture['remote'], name: string, text: string): string {
  const file = join(user.home, name);
  writeFileSync(file, text, { mode: 0o644 });
  chownSync(file, user.uid, user.gid);
  return file;
}

function readJson(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8').trim();
  return text ? (JSON.parse(text.split('\n').at(-1)!) as Record<string, unknown>) : null;
}

/** A raw HTTP GET with a chosen Host header (a browser cannot forge one). */
function getWithHost(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/', headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test.describe('remote machines over SSH', () => {
  test.skip(!RUN_AS_ROOT, 'needs root: useradd for the remote and third users, and a private sshd');
  let sshd: SshdFixture | null = null;
  // The remote user runs this checkout's CLI: the directories above it let others pass meanwhile.
  let restoreModes = (): void => undefined;
  test.beforeEach(() => {
    restoreModes = letOthersPass(REPO_ROOT);
  });
  test.afterEach(async () => {
    await sshd?.dispose();
    sshd = null;
    restoreModes();
  });

  test('a handoff from the remote appears in the desktop, a remote approval is answered by a click, and the credential dies with the ssh session', async ({ page, home, launchHost }) => {
    test.setTimeout(180_000);
    sshd = await startSshd();
    const remote = sshd.remote;
    const env = { XDG_RUNTIME_DIR: '' };
    const host = await launchHost(env);
    await page.goto(host.url);

    const cli = `node ${BATON_BIN}`;
    writeAs(remote, 'messages.jsonl', ['{"role":"user","content":"Train with the fixed seed on the GPU box"}', '{"role":"assistant","content":"Seed pinned in train.py."}', ''].join('\n'));
    const hook = { session_id: 'gpu-claude', transcript_path: '/dev/null', cwd: `${remote.home}/proj`, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: `${remote.home}/proj/notes.md`, content: 'x' }, tool_use_id: 'toolu_ssh_1' };
    writeAs(remote, 'hook.json', JSON.stringify(hook));
    const script = writeAs(
      remote,
      'remote.sh',
      [
        'set -e',
        'p="$HOME/proj"; mkdir -p "$p" && cd "$p"',
        'git init -q . && printf "seed = 1\\n" > train.py && git add train.py && git -c user.name=r -c user.email=r@x commit -qm init',
        'printf "seed = 42\\n" > train.py',
        'cp "$BATON_SSH_ENDPOINT/token" "$HOME/kept-token"',
        `${cli} handoff --cwd "$p" --title "GPU training run" --messages "$HOME/messages.jsonl" --json > "$HOME/handoff.json" || true`,
        `sid=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).sessionId' "$HOME/handoff.json")`,
        `${cli} approve --hook claude --session "$sid" --wait 120 < "$HOME/hook.json" > "$HOME/approve.json"`,
        'while [ ! -e "$HOME/go" ]; do sleep 0.1; done',
        '',
      ].join('\n'),
    );
    let sshStderr = '';
    const child = spawn(process.execPath, [BATON_BIN, 'ssh', sshd.destination, ...sshd.sshArgs, '--', 'sh', script], { cwd: REPO_ROOT, env: { ...process.env, ...env, BATON_HOME: home.path }, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d) => (sshStderr += d));
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));

    // 1. The handoff: accepted, and in the desktop UI with where it came from.
    await expect.poll(() => readJson(join(remote.home, 'handoff.json')), { timeout: 60_000, message: sshStderr }).not.toBeNull();
    const handoff = readJson(join(remote.home, 'handoff.json'))!;
    expect(handoff, sshStderr).toMatchObject({ ok: true, category: 'accepted' });
    const sessions = new SessionsPage(page);
    await expect(sessions.session(handoff.sessionId as string)).toBeVisible();
    await sessions.open(handoff.sessionId as string);
    await expect(page.getByTestId('session-title')).toHaveText('GPU training run');
    await expect(page.getByTestId('ssh-from')).toHaveText(`over SSH from ${sshd.destination}`);
    await expect(page.getByTestId('remote-session-notice')).toContainText('Its paths are paths on that machine');
    await expect(sessions.messages()).toHaveCount(2);
    // The diff comes from the patch the handoff carried: the laptop has no such directory.
    const view = new SessionViewPage(page);
    await view.openTab('changes');
    await expect(view.files()).toHaveCount(1);
    await expect(view.files().first()).toContainText('train.py');
    await view.openTab('conversation');
    // Continue in terminal: the ssh line, run on the remote.
    await page.getByTestId('continue-in-terminal').click();
    await expect(page.getByTestId('terminal-shell-line')).toHaveText(`ssh ${sshd.destination} -t 'cd ${remote.home}/proj && baton resume ${handoff.sessionId as string}'`);
    await page.keyboard.press('Escape');

    // 2. The approval asked on the remote, shown with the remote's paths, answered by a click.
    const approvals = new ApprovalsPage(page);
    await expect(approvals.badge()).toHaveText('1', { timeout: 60_000 });
    await approvals.open();
    await expect(approvals.detail().getByTestId('approval-subject')).toContainText(`${remote.home}/proj/notes.md`);
    await expect(approvals.detail().getByTestId('approval-remote-host')).toHaveText(sshd.destination);
    await approvals.approve();
    await expect.poll(() => readJson(join(remote.home, 'approve.json')), { timeout: 30_000 }).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });

    // 3. The ssh session ends: the one-time credential no longer opens the desktop.
    const kept = readFileSync(join(remote.home, 'kept-token'));
    const endpoint = resolveEndpoint(home.path, {});
    (await connectEndpoint({ endpoint, token: kept })).close();
    writeFileSync(join(remote.home, 'go'), '');
    expect(await exited, sshStderr).toBe(0);
    await expect
      .poll(async () => connectEndpoint({ endpoint, token: kept }).then((c) => (c.close(), 'open'), (e: { code?: string }) => e.code), { timeout: 10_000 })
      .toBe('UNAUTHENTICATED');
  });

  test('the browser host through ssh -L on a different local port; a forged Host still gets 421', async ({ page, launchHost }) => {
    test.setTimeout(120_000);
    sshd = await startSshd();
    const host = await launchHost({ XDG_RUNTIME_DIR: '' });
    const localPort = await freePort();
    expect(localPort).not.toBe(host.port);
    const tunnel = spawn('ssh', [...sshd.sshArgs, '-N', '-o', 'ExitOnForwardFailure=yes', '-L', `${localPort}:127.0.0.1:${host.port}`, sshd.destination], { stdio: ['ignore', 'ignore', 'pipe'] });
    let tunnelErr = '';
    tunnel.stderr.on('data', (d) => (tunnelErr += d));
    try {
      await expect.poll(() => getWithHost(localPort, `localhost:${localPort}`).catch(() => 0), { timeout: 20_000, message: tunnelErr }).toBe(200);
      const url = new URL(host.url);
      await page.goto(`http://localhost:${localPort}/?token=${url.searchParams.get('token')}`);
      // The WebSocket opened through the tunnel: the UI answers (the empty session list).
      await expect(page.getByTestId('open-approvals')).toBeVisible();
      await expect(new ApprovalsPage(page).badge()).toHaveText('0');
      expect(await getWithHost(localPort, `rebind.attacker.example:${localPort}`)).toBe(421);
      expect(await getWithHost(localPort, 'evil.example')).toBe(421);
    } finally {
      tunnel.kill('SIGTERM');
    }
  });
});
