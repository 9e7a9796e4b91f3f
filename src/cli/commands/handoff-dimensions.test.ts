import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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

function baton(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '' } }, (error, stdout, stderr) => {
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
