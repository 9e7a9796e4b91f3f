import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Manifest } from '../../shared/manifest.js';
import { startHostServices, type HostServices } from '../../core/host/host-services.js';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { openStore } from '../../core/store/index.js';
import type { SessionStore } from '../../core/store/types.js';
import { ensureEndpointDir, loadOrCreateToken, resolveEndpoint } from '../../core/transport/endpoint.js';
import { startEndpointServer } from '../../core/transport/server.js';
import type { EndpointServer } from '../../core/transport/types.js';
import { createReceiver } from '../../core/handoff/receiver.js';
import { claude, writeLog } from '../../core/importers/test-fixtures/build-logs.js';

/**
 * The handoff's dimensions through the real CLI in a child process, against a real receiver on a
 * real socket: capabilities derived from a dirty repository, a registered task in the manifest,
 * and the permission rules carried by hash.
 */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let root: string;
let dataDir: string;
let repo: string;
let messagesFile: string;
const cleanups: Array<() => Promise<void>> = [];

interface Run {
  code: number;
  json: Record<string, unknown>;
  stderr: string;
}

function baton(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', ...env } }, (error, stdout, stderr) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      } catch {
        json = { unparsed: stdout };
      }
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, json, stderr });
    });
  });
}

const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-cli-dims-'));
  dataDir = join(root, 'data');
  repo = join(root, 'repo');
  await mkdir(repo);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 'T');
  await writeFile(join(repo, 'app.js'), 'console.log(1);\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  // Dirty: a tracked change (another size, so git's stat check sees it within the same second).
  await writeFile(join(repo, 'app.js'), 'console.log("changed");\n');
  messagesFile = join(root, 'messages.jsonl');
  await writeFile(messagesFile, `${JSON.stringify({ role: 'user', content: 'fix the app' })}\n${JSON.stringify({ role: 'assistant', content: 'changed app.js' })}\n`);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await rm(root, { recursive: true, force: true });
});

/** A test receiver: a real endpoint in the data dir that offers only `capabilities`. */
async function startTestReceiver(capabilities: string[]): Promise<SessionStore> {
  const store = await openStore(dataDir);
  const endpoint = resolveEndpoint(dataDir, {});
  await ensureEndpointDir(endpoint.dir);
  const token = await loadOrCreateToken(endpoint.tokenPath);
  const server: EndpointServer = await startEndpointServer({ endpoint, token, handle: createReceiver({ store, capabilities, holder: 'desktop' }) });
  cleanups.push(async () => {
    await server.close();
    await store.close();
  });
  return store;
}

async function startHost(): Promise<HostServices> {
  const services = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
  cleanups.push(() => services.close());
  return services;
}

describe('baton handoff: capabilities from the session (real CLI, real socket)', () => {
  it('a dirty repository offered to a receiver without diff-viewer: needs-capabilities, exit 4, the session kept, the exact message and the way forward', async () => {
    const store = await startTestReceiver(['conversation', 'approval-ui', 'task-panel', 'file-watcher']);
    const run = await baton(['handoff', '--cwd', repo, '--messages', messagesFile, '--no-launch', '--json']);
    expect(run.code).toBe(4);
    expect(run.json).toMatchObject({ ok: false, category: 'needs_capabilities', exitCode: 4, answer: { status: 'needs-capabilities', missing: ['diff-viewer'] } });
    const sessionId = String(run.json.sessionId);
    expect(run.json.message).toBe(
      'The receiving host cannot show what this session needs: diff-viewer — the workspace changes (diff viewer). Nothing was handed over; open the session in a Baton host that can (the desktop app: npm start).',
    );
    expect(run.json.resumeCommand).toContain(sessionId);
    // Kept: saved with both messages, the baton not passed.
    expect(await store.readMessages(sessionId)).toHaveLength(2);
    expect((await store.getSession(sessionId)).holder).toMatchObject({ who: 'terminal', epoch: 1 });
    const manifest = Manifest.parse(JSON.parse(await readFile(join(store.sessionDir(sessionId), 'handoff.json'), 'utf8')));
    expect(manifest.capabilities_required).toEqual(['conversation', 'diff-viewer', 'file-watcher', 'approval-ui']);

    // Without --json: the same words on stderr, where the session is, and the command to resume it.
    const text = await baton(['handoff', '--session', sessionId, '--no-launch']);
    expect(text.code).toBe(4);
    expect(text.stderr).toContain('Baton could not hand the session off (needs_capabilities): The receiving host cannot show what this session needs: diff-viewer');
    expect(text.stderr).toContain(`The session is saved at ${store.sessionDir(sessionId)}`);
    expect(text.stderr).toContain(`baton handoff --session ${sessionId}`);
  });

  it('the desktop is connected to while the session lands; a landing that fails offers nothing and the process still ends at once', async () => {
    const store = await startTestReceiver(['conversation', 'approval-ui', 'diff-viewer', 'file-watcher']);
    const started = Date.now();
    const failed = await baton(['handoff', '--cwd', join(root, 'gone'), '--messages', messagesFile, '--no-launch', '--json', '--timeout', '20']);
    expect(failed.code).not.toBe(0);
    expect(failed.json).toMatchObject({ ok: false, category: 'write_failure', sessionId: null });
    // The early connection was closed, not left to the 20 s timeout or the receiver's idle limit.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await store.list({ includeArchived: true })).toEqual([]);
    // The same receiver then takes a handoff whose landing succeeds, over the early connection.
    const run = await baton(['handoff', '--cwd', repo, '--messages', messagesFile, '--no-launch', '--json']);
    expect(run).toMatchObject({ code: 0, json: { category: 'accepted' } });
    expect(await store.readMessages(String(run.json.sessionId))).toHaveLength(2);
  });

  it('the workspace is captured while the messages are read: a bad input still refuses with nothing saved and no temporary index left behind', async () => {
    const store = await startTestReceiver(['conversation', 'approval-ui', 'diff-viewer', 'file-watcher']);
    const bad = join(root, 'bad.jsonl');
    await writeFile(bad, '{"role":"user","content":"ok"}\nnot json\n');
    // A private TMPDIR: the dirty tree's temporary index goes there while the capture runs.
    const tmp = join(root, 'tmp');
    await mkdir(tmp);
    const run = await baton(['handoff', '--cwd', repo, '--messages', bad, '--no-launch', '--json'], { TMPDIR: tmp });
    expect(run.code).toBe(2);
    expect(run.json).toMatchObject({ ok: false, code: 'BAD_INPUT' });
    expect(String(run.json.message)).toContain('bad.jsonl:2: not valid JSON');
    expect(await store.list({ includeArchived: true })).toEqual([]);
    expect((await readdir(tmp)).filter((name) => name.startsWith('baton-'))).toEqual([]);
  });

  it('a clean repository needs no diff-viewer: the same receiver accepts it', async () => {
    git('checkout', '--', 'app.js');
    await startTestReceiver(['conversation', 'approval-ui']);
    const run = await baton(['handoff', '--cwd', repo, '--messages', messagesFile, '--no-launch', '--json']);
    expect(run).toMatchObject({ code: 0, json: { category: 'accepted' } });
  });
});

describe('baton handoff: tasks and permissions in the manifest (real CLI, real host)', () => {
  it('a task registered before the handoff is in the manifest and session.json; the rules travel as an artifact by hash', async () => {
    const first = await baton(['handoff', '--cwd', repo, '--messages', messagesFile, '--no-launch', '--json']);
    expect(first.code).toBe(3); // nothing running yet: saved, not offered
    const sessionId = String(first.json.sessionId);
    const services = await startHost();
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(async () => void sleeper.kill('SIGKILL'));
    const reg = await baton(['task', 'register', '--id', 'dev-server', '--kind', 'dev-server', '--command', 'npm run dev', '--pid', String(sleeper.pid), '--port', '5173', '--session', sessionId, '--json']);
    expect(reg.code).toBe(0);

    const run = await baton(['handoff', '--session', sessionId, '--no-launch', '--json']);
    expect(run).toMatchObject({ code: 0, json: { category: 'accepted' } });
    const manifest = Manifest.parse(JSON.parse(await readFile(join(services.store.sessionDir(sessionId), 'handoff.json'), 'utf8')));
    expect(manifest.handoff_id).not.toBe(first.json.handoffId); // a new task makes a new manifest
    expect(manifest.capabilities_required).toEqual(['conversation', 'diff-viewer', 'file-watcher', 'approval-ui', 'task-panel']);
    expect(manifest.background_tasks).toEqual([
      expect.objectContaining({ id: 'dev-server', kind: 'dev-server', command: 'npm run dev', pid: sleeper.pid, port: 5173, recoverable: false, state: 'running' }),
    ]);
    const session = await services.store.getSession(sessionId);
    expect(session.tasks).toEqual([expect.objectContaining({ id: 'dev-server', pid: sleeper.pid, port: 5173, state: 'running', origin: 'baton' })]);
    const ref = String(manifest.permission_state.rules_ref);
    const bytes = await services.store.readArtifact(sessionId, ref);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.permission_state.rules_sha256);
    expect(session.permission?.inForce).toMatchObject({ mode: 'default', handoffId: manifest.handoff_id });
  });
});

describe('baton handoff: the model configuration travels by hash (real CLI, real host)', () => {
  it('--from claude: model.settings_ref names the redacted settings artifact with its hash; a tampered artifact is refused naming the field', async () => {
    const configDir = join(root, 'claude-config');
    await mkdir(configDir);
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    await writeFile(join(configDir, 'settings.json'), JSON.stringify({ model: 'opus', env: { GITHUB_TOKEN: secret }, permissions: { allow: ['Bash(npm test:*)'] } }));
    await mkdir(join(repo, '.claude'));
    await writeFile(join(repo, '.claude', 'settings.json'), JSON.stringify({ outputStyle: 'Explanatory' }));
    const claudeMd = '# Rules\nRun the tests before committing.\n';
    await writeFile(join(repo, 'CLAUDE.md'), claudeMd);
    const transcript = await writeLog(join(root, 'transcript.jsonl'), [
      claude.user({ uuid: 'u1', cwd: repo }, 'fix the app'),
      claude.assistant({ uuid: 'a1', parentUuid: 'u1', cwd: repo }, 'msg_A', claude.text('Looking.'), 'claude-sonnet-4-5'),
      claude.assistant({ uuid: 'a2', parentUuid: 'a1', cwd: repo }, 'msg_B', claude.text('Changed app.js.'), 'claude-opus-4-6'),
    ]);
    const env = { CLAUDE_CONFIG_DIR: configDir };

    // Nobody listens yet: the session is saved and its manifest recorded, not offered.
    const first = await baton(['handoff', '--from', 'claude', '--session', transcript, '--no-launch', '--json'], env);
    expect(first.code).toBe(3);
    const sessionId = String(first.json.sessionId);
    const store = await openStore(dataDir);
    const manifest = Manifest.parse(JSON.parse(await readFile(join(store.sessionDir(sessionId), 'handoff.json'), 'utf8')));
    expect(manifest.model).toMatchObject({ name: 'claude-opus-4-6', settings_ref: expect.stringMatching(/^artifacts\/[0-9a-f]{64}\.json$/) });
    const ref = String(manifest.model?.settings_ref);
    const bytes = await store.readArtifact(sessionId, ref);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.model?.settings_sha256);
    const carried = JSON.parse(new TextDecoder().decode(bytes)) as { name: string; settings: Record<string, unknown> };
    expect(carried).toMatchObject({
      kind: 'baton.model-settings',
      name: 'claude-opus-4-6',
      settings: {
        sourceTool: 'claude',
        model: 'claude-opus-4-6',
        clientVersion: '2.1.39',
        settingsModel: 'opus',
        outputStyle: 'Explanatory',
        instructions: [{ ref: join(repo, 'CLAUDE.md'), sha256: createHash('sha256').update(claudeMd).digest('hex'), bytes: claudeMd.length }],
      },
    });
    const text = new TextDecoder().decode(bytes);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Run the tests');
    expect(JSON.stringify((await store.getSession(sessionId)).model)).not.toContain(secret);

    // The artifact is changed on disk before the offer: the target refuses, naming the field.
    const file = join(store.sessionDir(sessionId), ref);
    await store.close();
    await chmod(file, 0o600);
    await writeFile(file, text.replace('Explanatory', 'Learning'));
    const services = await startHost();
    const refused = await baton(['handoff', '--session', sessionId, '--no-launch', '--json'], env);
    expect(refused).toMatchObject({ code: 5, json: { ok: false, category: 'rejected', answer: { code: 'VERIFY_MISMATCH' } } });
    expect(String(refused.json.message)).toContain('model.settings_sha256');
    expect((await services.store.getSession(sessionId)).holder).toMatchObject({ who: 'terminal' });

    // Put back, the same manifest is accepted and the target holds the same model.
    await writeFile(file, text);
    const accepted = await baton(['handoff', '--session', sessionId, '--no-launch', '--json'], env);
    expect(accepted).toMatchObject({ code: 0, json: { category: 'accepted' } });
    expect((await services.store.getSession(sessionId)).model).toMatchObject({ name: 'claude-opus-4-6', settingsRef: ref, settingsSha256: manifest.model?.settings_sha256 });
  });

  it('a Baton messages file: the model of the last assistant message is carried', async () => {
    await writeFile(messagesFile, `${JSON.stringify({ role: 'user', content: 'fix' })}\n${JSON.stringify({ role: 'assistant', content: 'done', model: 'gpt-5.3-codex' })}\n`);
    const services = await startHost();
    const run = await baton(['handoff', '--cwd', repo, '--messages', messagesFile, '--no-launch', '--json']);
    expect(run).toMatchObject({ code: 0, json: { category: 'accepted' } });
    const sessionId = String(run.json.sessionId);
    const manifest = Manifest.parse(JSON.parse(await readFile(join(services.store.sessionDir(sessionId), 'handoff.json'), 'utf8')));
    expect(manifest.model).toMatchObject({ name: 'gpt-5.3-codex', settings_ref: expect.any(String), settings_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
