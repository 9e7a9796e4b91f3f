import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../../core/host/host-services.js';
import { openStore } from '../../core/store/index.js';
import { FILE_MAGIC } from '../../core/store/at-rest/at-rest-cipher.js';
import { isEnvelope } from '../../core/store/at-rest/line-envelope.js';
import { keyringEntries, startSecretService, type SecretService } from '../../core/store/at-rest/test-support/secret-service.js';
import { removeDir, tempDataDir } from '../../core/tasks/test-support/endpoint.js';
import { grepMarker, markerWorkspace } from '../test-support/marker-workspace.js';
import { claude, claudeLogPath, writeLog } from '../../core/importers/test-fixtures/build-logs.js';

/**
 * Encryption at rest end to end, against a real Secret Service (gnome-keyring on a private D-Bus
 * bus): a full handoff through the real CLI and host, then the data directory is walked and
 * grepped; `baton encrypt --enable` converts a plaintext store; `baton key rotate` moves it to a
 * new key.
 */
const CLI = join(import.meta.dirname, '..', 'run.ts');
const MARKER = 'QUOKKA-7731-MARKER';
const ALLOW_LIST_DOC = join(import.meta.dirname, '..', '..', '..', 'docs', 'encryption.md');

let service: SecretService;
let root: string;
let dataDir: string;
let host: HostServices | undefined;

function baton(args: string[]): Promise<{ code: number; json: Record<string, unknown>; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, BATON_HOME: dataDir, XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '' } }, (error, stdout) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
      } catch {
        json = {};
      }
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, json, stdout });
    });
  });
}

/** The allow-list table of docs/encryption.md: `path` globs (`*` = one path component). */
async function allowList(): Promise<RegExp[]> {
  const doc = await readFile(ALLOW_LIST_DOC, 'utf8');
  const section = doc.slice(doc.indexOf('## The allow-list'), doc.indexOf('\n## ', doc.indexOf('## The allow-list') + 1));
  const globs = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
  expect(globs.length).toBeGreaterThan(0);
  return globs.map((g) => new RegExp(`^${g.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Each file that is neither allow-listed nor ciphertext (sealed whole, or every line an envelope). */
async function plaintextFiles(dir: string): Promise<string[]> {
  const allowed = await allowList();
  const bad: string[] = [];
  for (const path of await filesUnder(dir)) {
    const rel = relative(dir, path);
    if (allowed.some((re) => re.test(rel))) continue;
    const bytes = await readFile(path);
    const sealedWhole = bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC);
    const lines = bytes.toString('utf8').split('\n').filter(Boolean);
    const sealedLines = rel.endsWith('.jsonl') && lines.every((l) => isEnvelope(Buffer.from(l)));
    if (!sealedWhole && !sealedLines) bad.push(rel);
  }
  return bad;
}

beforeAll(async () => {
  service = await startSecretService();
});
afterAll(() => service.stop());
beforeEach(async () => {
  root = await tempDataDir('baton-cli-encrypt-');
  dataDir = join(root, 'data');
});
afterEach(async () => {
  await host?.close();
  host = undefined;
  await removeDir(root);
});

describe('encryption at rest, end to end', () => {
  it('after a full handoff with a marker, grep -r finds it nowhere and every file outside the allow-list is ciphertext', async () => {
    // Claude Code sessions carrying the marker, enough for a hosted listing bigger than a frame:
    // the host seals it into its listings folder, which the walk and the grep then cover.
    const saved = { home: process.env.HOME, runtime: process.env.XDG_RUNTIME_DIR };
    process.env.HOME = join(root, 'home');
    delete process.env.XDG_RUNTIME_DIR;
    for (let i = 0; i < 700; i++) {
      const id = `eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const cwd = `/home/dev/p${i % 5}`;
      await writeLog(claudeLogPath(process.env.HOME, cwd, id), [claude.user({ uuid: `${id}-u`, cwd, sessionId: id }, `${MARKER} candidate ${i} ${'z'.repeat(120)}`)]);
    }
    try {
      await fullScenario();
    } finally {
      process.env.HOME = saved.home;
      if (saved.runtime !== undefined) process.env.XDG_RUNTIME_DIR = saved.runtime;
    }
  }, 120_000);

  async function fullScenario(): Promise<void> {
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const info = await host.dispatch('host:info', {});
    expect(info).toMatchObject({ ok: true, value: { encryption: { state: 'on' } } });
    const work = await markerWorkspace(root, MARKER);
    const messages = join(root, 'session.jsonl');
    await writeFile(messages, [{ role: 'user', content: `Fix the ${MARKER} bug` }, { role: 'assistant', content: `Patched ${MARKER}.` }].map((m) => JSON.stringify(m)).join('\n') + '\n');
    const handoff = await baton(['handoff', '--cwd', work, '--title', `Title ${MARKER}`, '--messages', messages, '--no-launch', '--json']);
    expect(handoff.json).toMatchObject({ ok: true, category: 'accepted' });
    const sessionId = String(handoff.json.sessionId);
    // Offered again unchanged: the sealed handoff.json is read back, so the same handoff id is a duplicate.
    const again = await baton(['handoff', '--session', sessionId, '--no-launch', '--json']);
    expect(again.json).toMatchObject({ ok: true, category: 'duplicate', handoffId: handoff.json.handoffId });
    const task = await baton(['task', 'register', '--command', `echo ${MARKER}`, '--kind', 'dev-server', '--session', sessionId, '--json']);
    expect(task.code).toBe(0);
    const shown = await baton(['show', sessionId, '--all', '--json']);
    expect(shown.stdout).toContain(`Patched ${MARKER}.`);
    const listed = (await baton(['list', '--json'])).stdout;
    expect(listed).toContain(`Title ${MARKER}`);
    expect(listed).toContain(`${MARKER} candidate 699`);
    // The listing came from the host's sealed file (bigger than a frame), left in place for the walk.
    const sealedListings = (await readdir(join(dataDir, 'listings'))).filter((n) => n.endsWith('.sealed'));
    expect(sealedListings.length).toBeGreaterThan(0);
    await host.close();
    host = undefined;

    const files = (await filesUnder(dataDir)).map((p) => relative(dataDir, p));
    // The scenario wrote what the issue names: messages, the session document, a patch, the index, a receipt, a task.
    for (const expected of [/messages\.jsonl$/, /session\.json$/, /\.patch$/, /^index\.(json|journal\.jsonl)$/, /^receipts\//, /^tasks\//, /handoffs\.jsonl$/, /^events\.jsonl$/]) expect(files.some((f) => expected.test(f)), String(expected)).toBe(true);
    expect(files.some((f) => /^listings\/listing-[0-9a-f]{32}\.sealed$/.test(f))).toBe(true);
    expect(await grepMarker(dataDir, MARKER)).toEqual([]);
    expect(await plaintextFiles(dataDir)).toEqual([]);
  }

  it('baton encrypt --enable converts a plaintext store, resumes as a no-op, and the sessions read back', async () => {
    const plain = await openStore(dataDir, { keyStore: null });
    const s = await plain.createSession({ cwd: '/w', gitRoot: null, branch: null, title: `Old ${MARKER}`, source: { tool: 'claude' }, holder: 'terminal' }, [{ role: 'user', content: `old ${MARKER}` }], [{ bytes: Buffer.from(`diff ${MARKER}`), extension: 'patch' }]);
    await plain.append(s.id, 1, [{ role: 'assistant', content: `later ${MARKER}` }]);
    await plain.recordHandoff(s.id, { handoff_id: 'h-x', note: MARKER });
    await plain.appendEvent({ kind: 'note', note: MARKER });
    await plain.close();
    // The walk and the grep do see plaintext: the same checks on the store before conversion fail.
    expect((await grepMarker(dataDir, MARKER)).length).toBeGreaterThan(3);
    expect((await plaintextFiles(dataDir)).length).toBeGreaterThan(3);

    const before = await baton(['encrypt', '--status', '--json']);
    expect(before.json).toMatchObject({ ok: true, state: 'off', detail: expect.stringMatching(/baton encrypt --enable/) });
    const enabled = await baton(['encrypt', '--enable', '--json']);
    expect(enabled.json).toMatchObject({ ok: true, state: 'on', created: true, sessions: 1, undecodable: [] });
    expect(enabled.json.resealed as number).toBeGreaterThan(5);
    expect(await grepMarker(dataDir, MARKER)).toEqual([]);
    expect(await plaintextFiles(dataDir)).toEqual([]);

    const again = await baton(['encrypt', '--enable', '--json']);
    expect(again.json).toMatchObject({ ok: true, created: false, resealed: 0 });
    const shown = await baton(['show', s.id, '--all', '--json']);
    expect(shown.stdout).toContain(`later ${MARKER}`);
    expect((await baton(['encrypt', '--status', '--json'])).json).toMatchObject({ state: 'on', keyId: enabled.json.keyId });
  }, 120_000);

  it('baton key rotate re-encrypts under a new key, then deletes the old one from the keychain', async () => {
    const store = await openStore(dataDir);
    const s = await store.createSession({ cwd: '/w', gitRoot: null, branch: null, title: `R ${MARKER}`, source: { tool: 'codex' }, holder: 'terminal' }, [{ role: 'user', content: `rot ${MARKER}` }]);
    const oldKey = store.atRest.state === 'on' ? store.atRest.keyId : '';
    await store.close();
    const stateBefore = JSON.parse(await readFile(join(dataDir, 'encryption.json'), 'utf8')) as { key: { account: string } };
    expect(await keyringEntries(service)).toContain(stateBefore.key.account);

    const rotated = await baton(['key', 'rotate', '--json']);
    expect(rotated.json).toMatchObject({ ok: true, from: [oldKey] });
    const newKey = String(rotated.json.to);
    expect(newKey).not.toBe(oldKey);
    const stateAfter = JSON.parse(await readFile(join(dataDir, 'encryption.json'), 'utf8')) as { key: { account: string; keyId: string }; previous: unknown[] };
    expect(stateAfter).toMatchObject({ key: { keyId: newKey }, previous: [] });
    const entries = await keyringEntries(service);
    expect(entries).toContain(stateAfter.key.account);
    expect(entries).not.toContain(stateBefore.key.account);
    // Every sealed file and line now names the new key.
    for (const path of await filesUnder(join(dataDir, 'sessions'))) {
      const text = (await readFile(path)).toString('latin1');
      expect(text.includes(oldKey), path).toBe(false);
      expect(text.includes(newKey), path).toBe(true);
    }
    expect((await baton(['show', s.id, '--json'])).stdout).toContain(`rot ${MARKER}`);
  }, 120_000);

  it('refuses to convert or rotate while a host runs, changing nothing', async () => {
    host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
    const state = await readFile(join(dataDir, 'encryption.json'), 'utf8');
    const r = await baton(['key', 'rotate', '--json']);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ ok: false, code: 'HOST_RUNNING' });
    expect(await readFile(join(dataDir, 'encryption.json'), 'utf8')).toBe(state);
  }, 60_000);
});
