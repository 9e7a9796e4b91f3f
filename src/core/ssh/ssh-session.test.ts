import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../host/capabilities.js';
import { startHostServices, type HostServices } from '../host/host-services.js';
import { connectEndpoint } from '../transport/client.js';
import { needsUser } from '../test-support/needs-user.js';
import { sshOriginOf } from '../../shared/ssh-origin.js';
import { letOthersPass } from './test-support/let-others-pass.js';
import { startSshd, type SshdFixture } from './test-support/sshd-fixture.js';

/**
 * `baton ssh` end to end against a real OpenSSH server (issue 22): the laptop is this process (a
 * host with its own data dir) and the real CLI in a child; the remote box is a second Unix user
 * with its own HOME and Baton store, reached through sshd on a loopback port. The two share no
 * directory: the session reaches the laptop only through the forwarded socket.
 */
const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const CLI = path.join(REPO, 'src', 'cli', 'run.ts');
const STEP_TIMEOUT_MS = 60_000;

let sshd: SshdFixture | null = null;
let services: HostServices | null = null;
let laptopDir = '';
/** Puts back the modes letOthersPass changed. */
let restoreModes = (): void => undefined;
afterAll(async () => {
  await services?.close();
  await sshd?.dispose();
  if (laptopDir) rmSync(laptopDir, { recursive: true, force: true });
  restoreModes();
});

function writeAs(user: SshdFixture['remote'], name: string, text: string): string {
  const file = path.join(user.home, name);
  writeFileSync(file, text, { mode: 0o644 });
  chownSync(file, user.uid, user.gid);
  return file;
}

async function until<T>(what: string, probe: () => T | null | undefined | false, context: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readJsonLine(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8').trim();
  return text ? (JSON.parse(text.split('\n').at(-1)!) as Record<string, unknown>) : null;
}

/** As another user of the remote box: connect to a Unix socket; prints "connected" or the errno. */
function connectAs(user: SshdFixture['other'], socketPath: string): string {
  const code = `require('net').connect(${JSON.stringify(socketPath)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(0)})`;
  const result = spawnSync('setpriv', [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', process.execPath, '-e', code], { encoding: 'utf8' });
  return result.stdout.trim() || result.stderr.trim();
}

describe('baton ssh against a real sshd', () => {
  it('hands a session off from the remote box, answers a remote approval, keeps a third user out, and the credential dies with the ssh session', async (ctx) => {
    needsUser(ctx, 'root', 'useradd for the remote and third users, and sshd');
    restoreModes = letOthersPass(REPO);
    sshd ??= await startSshd();
    delete process.env.XDG_RUNTIME_DIR; // the laptop's socket under its own data dir, as the CLI child finds it
    laptopDir = mkdtempSync(path.join(os.tmpdir(), 'baton-laptop-'));
    services = await startHostServices({ dataDir: laptopDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const remote = sshd.remote;
    const cli = `node --import tsx ${CLI}`;
    writeAs(remote, 'messages.jsonl', ['{"role":"user","content":"Fix the flaky test on the GPU box"}', '{"role":"assistant","content":"Pinned the seed."}', ''].join('\n'));
    const hook = {
      session_id: 'remote-claude-1',
      cwd: `${remote.home}/proj`,
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      tool_input: { file_path: `${remote.home}/proj/notes.txt`, content: 'x' },
      tool_use_id: 'toolu_remote_1',
    };
    writeAs(remote, 'hook.json', JSON.stringify(hook));
    writeAs(remote, 'hook-2.json', JSON.stringify({ ...hook, tool_input: { file_path: '~root/.profile', content: 'x' }, tool_use_id: 'toolu_remote_2' }));
    const script = writeAs(
      remote,
      'remote.sh',
      [
        'set -e',
        'mkdir -p "$HOME/proj"',
        `cd ${REPO}`,
        'printf "%s\\n" "$BATON_SSH_ENDPOINT" > "$HOME/endpoint-dir"',
        'cp "$BATON_SSH_ENDPOINT/token" "$HOME/kept-token"',
        `${cli} handoff --cwd "$HOME/proj" --title "From the GPU box" --messages "$HOME/messages.jsonl" --json > "$HOME/handoff-1.json" || true`,
        `sid=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).sessionId' "$HOME/handoff-1.json")`,
        `${cli} handoff --session "$sid" --json > "$HOME/handoff-2.json" || true`,
        `${cli} task register --id remote-train --command "python train.py" --kind build --session "$sid" --json > "$HOME/task.json"`,
        `${cli} approve --hook claude --session "$sid" --wait 60 < "$HOME/hook.json" > "$HOME/approve.json"`,
        // As an agent's hook started without the variable: found through ~/.baton-ssh/current.
        `env -u BATON_SSH_ENDPOINT ${cli} approve --hook claude --session "$sid" --wait 60 < "$HOME/hook-2.json" > "$HOME/approve-2.json"`,
        'while [ ! -e "$HOME/go" ]; do sleep 0.1; done',
        '',
      ].join('\n'),
    );

    const laptopEnv = { ...process.env, BATON_HOME: laptopDir, XDG_RUNTIME_DIR: '' };
    let stderr = '';
    const exited = new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', CLI, 'ssh', sshd!.destination, ...sshd!.sshArgs, '--', 'sh', script], { env: laptopEnv, cwd: REPO }, (error) => {
        resolve(error ? Number((error as { code?: number }).code ?? 1) : 0);
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    });

    // The handoff: accepted on the laptop, the second offer of the same session a duplicate.
    const first = await until('the first handoff', () => readJsonLine(path.join(remote.home, 'handoff-1.json')), () => `baton ssh said: ${stderr}\nsshd said: ${sshd!.log().slice(-3000)}`);
    expect(first, stderr).toMatchObject({ ok: true, category: 'accepted' });
    const sessionId = first.sessionId as string;
    const second = await until('the second handoff', () => readJsonLine(path.join(remote.home, 'handoff-2.json')));
    expect(second).toMatchObject({ ok: true, category: 'duplicate', sessionId });
    const landed = await services.store.getSession(sessionId);
    expect(sshOriginOf(landed)?.host).toBe(sshd.destination);
    expect(landed.cwd).toBe(`${remote.home}/proj`);
    expect((await services.store.readMessages(sessionId)).map((m) => m.content)).toEqual(['Fix the flaky test on the GPU box', 'Pinned the seed.']);
    expect(landed.holder.who).toBe('browser');

    // A task registered on the remote is the laptop's to watch.
    expect(await until('the remote task', () => readJsonLine(path.join(remote.home, 'task.json')))).toMatchObject({ ok: true });
    expect((await services.tasks.list({ sessionId })).map((t) => t.record.id)).toEqual(['remote-train']);

    // The remote approval: shown with the remote's paths, answered here, heard there.
    const pending = await until('the remote approval', () => services!.approvals.listPending()[0]);
    expect(pending.request.cwd).toBe(`${remote.home}/proj`);
    expect(pending.request.input.file_path).toBe(`${remote.home}/proj/notes.txt`);
    expect(pending.request.workspaceSource).toBe('remote');
    expect(pending.request.remote).toMatchObject({ host: sshd.destination, home: remote.home, paths: [{ path: `${remote.home}/proj/notes.txt`, resolved: `${remote.home}/proj/notes.txt`, inside: true }] });
    expect(pending.request.risk.level).not.toBe('high');
    await services.approvals.decide(pending.request.requestId, { decision: 'approve' });
    const approved = await until('the approval answer', () => readJsonLine(path.join(remote.home, 'approve.json')));
    expect(approved).toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });

    // A path the remote cannot resolve is unknown, so high: the desktop never looks it up on its own disk.
    const unknown = await until('the second remote approval', () => services!.approvals.listPending()[0]);
    expect(unknown.request.remote?.paths).toEqual([{ path: '~root/.profile', resolved: null, inside: false }]);
    expect(unknown.request.risk.level).toBe('high');
    expect(unknown.request.risk.reasons.map((r) => r.rule)).toContain('remote-path-unresolved');
    await services.approvals.decide(unknown.request.requestId, { decision: 'deny' });
    expect(await until('the deny', () => readJsonLine(path.join(remote.home, 'approve-2.json')))).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });

    // A third user of the remote box: the directory is 0700, the socket unreachable, the token unreadable.
    const dir = readFileSync(path.join(remote.home, 'endpoint-dir'), 'utf8').trim();
    expect(connectAs(sshd.other, `${dir}/sock`)).toBe('EACCES');
    expect(connectAs(remote, `${dir}/sock`)).toBe('connected');
    const peek = spawnSync('setpriv', [`--reuid=${sshd.other.uid}`, `--regid=${sshd.other.gid}`, '--clear-groups', 'cat', `${dir}/token`], { encoding: 'utf8' });
    expect(peek.status).not.toBe(0);
    expect(peek.stderr).toMatch(/Permission denied/);

    // The ssh session ends: the directory is gone and the one-time credential no longer opens the desktop.
    const keptToken = readFileSync(path.join(remote.home, 'kept-token'));
    const beforeEnd = await connectEndpoint({ endpoint: services.endpoint, token: keptToken });
    beforeEnd.close();
    writeFileSync(path.join(remote.home, 'go'), '');
    expect(await exited, stderr).toBe(0);
    expect(existsSync(dir)).toBe(false);
    await expect(
      (async () => {
        for (let i = 0; i < 50; i++) {
          const client = await connectEndpoint({ endpoint: services!.endpoint, token: keptToken }).catch((error: unknown) => error as Error);
          if (client instanceof Error) throw client;
          client.close();
          await new Promise((r) => setTimeout(r, 100));
        }
      })(),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    // The laptop's own token still works, and never left it.
    expect(readFileSync(path.join(remote.home, 'kept-token')).equals(services.token)).toBe(false);
  }, 180_000);

  it('says so when the desktop goes away during the ssh session (its credentials die with it)', async (ctx) => {
    needsUser(ctx, 'root', 'useradd for the remote user, and sshd');
    sshd ??= await startSshd();
    delete process.env.XDG_RUNTIME_DIR;
    laptopDir ||= mkdtempSync(path.join(os.tmpdir(), 'baton-laptop-'));
    services ??= await startHostServices({ dataDir: laptopDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const remote = sshd.remote;
    rmSync(path.join(remote.home, 'go'), { force: true });
    const script = writeAs(remote, 'wait.sh', ['touch "$HOME/started"', 'while [ ! -e "$HOME/go" ]; do sleep 0.1; done', ''].join('\n'));
    let stderr = '';
    const exited = new Promise<number>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', CLI, 'ssh', sshd!.destination, ...sshd!.sshArgs, '--', 'sh', script], { env: { ...process.env, BATON_HOME: laptopDir, XDG_RUNTIME_DIR: '' }, cwd: REPO }, (error) => {
        resolve(error ? Number((error as { code?: number }).code ?? 1) : 0);
      });
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    });
    await until('the remote shell', () => existsSync(path.join(remote.home, 'started')), () => stderr);
    await services.close();
    services = null;
    await until('the warning', () => stderr.includes('the desktop ended the credential'), () => stderr);
    writeFileSync(path.join(remote.home, 'go'), '');
    expect(await exited, stderr).toBe(0);
  }, 120_000);
});
