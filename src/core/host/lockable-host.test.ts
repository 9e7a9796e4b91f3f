import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/error-codes.js';
import { enablePassphraseEncryption } from '../store/at-rest/convert.js';
import { passphraseSettings } from '../store/at-rest/host-unlock.js';
import { requestPassphraseKey } from '../store/at-rest/key-request.js';
import { heldPassphraseKey } from '../store/at-rest/passphrase.js';
import { removeDir, tempDataDir } from '../tasks/test-support/endpoint.js';
import { BROWSER_HOST_CAPABILITIES } from './capabilities.js';
import { startLockableHost, type LockableHost } from './lockable-host.js';
import { UNLOCK_FIRST_DELAY_MS } from './unlock-throttle.js';

/**
 * The lockable host with a real passphrase store, real scrypt, the real local endpoint and the
 * real host services once unlocked: the CLI's key request (over the socket) is refused while
 * locked, answered while unlocked, refused again after Lock.
 */
const PASSPHRASE = 'lockable host passphrase 7731';
const saved = { runtime: process.env.XDG_RUNTIME_DIR, home: process.env.HOME, bus: process.env.DBUS_SESSION_BUS_ADDRESS };
let root: string;
let dataDir: string;
let host: LockableHost | undefined;

beforeEach(async () => {
  root = await tempDataDir('baton-lockable-');
  dataDir = join(root, 'data');
  await mkdir(join(root, 'home'), { recursive: true });
  // The socket in <dataDir>/run, the agent scan in an empty HOME, no secret store.
  delete process.env.XDG_RUNTIME_DIR;
  process.env.HOME = join(root, 'home');
  process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(root, 'no-bus')}`;
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await enablePassphraseEncryption(dataDir, Buffer.from(PASSPHRASE));
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const [name, value] of [['XDG_RUNTIME_DIR', saved.runtime], ['HOME', saved.home], ['DBUS_SESSION_BUS_ADDRESS', saved.bus]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await removeDir(root);
});

async function start(): Promise<LockableHost> {
  const settings = await passphraseSettings(dataDir);
  expect(settings).toBeDefined();
  host = await startLockableHost({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES, settings: settings! });
  return host;
}

async function keyId(): Promise<string> {
  return (await passphraseSettings(dataDir))!.key.keyId;
}

describe('startLockableHost', () => {
  it('starts locked: store channels and the CLI key request are refused with LOCKED, nothing is opened', async () => {
    const before = (await readdir(dataDir)).sort();
    const h = await start();
    expect(await h.dispatch('store:lock-state', {})).toEqual({ ok: true, value: { state: 'locked', dataDir } });
    for (const channel of ['sessions:list', 'host:info', 'stats:get', 'approvals:pending']) {
      expect(await h.dispatch(channel, {})).toMatchObject({ ok: false, error: { code: ErrorCode.LOCKED } });
    }
    await expect(requestPassphraseKey(dataDir, await keyId())).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE', message: expect.stringMatching(/host is locked.*Unlock it/s) });
    expect(heldPassphraseKey(dataDir)).toBeUndefined();
    // Only the endpoint's own files appear (token, run/): the store was not opened.
    expect((await readdir(dataDir)).filter((name) => !before.includes(name)).sort()).toEqual(['run', 'token'].filter((n) => !before.includes(n)));
  });

  it('a wrong passphrase is refused without echoing it, the next try waits; the right one opens the store; Lock drops the key', async () => {
    const h = await start();
    const events: string[] = [];
    h.onUiEvent((event, payload) => events.push(`${event}:${JSON.stringify(payload)}`));

    const wrong = await h.dispatch('store:unlock', { passphrase: 'not it, sorry' });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'KEY_UNAVAILABLE', message: expect.stringMatching(/Wrong passphrase/) } });
    expect(JSON.stringify(wrong)).not.toContain('not it, sorry');
    // Even the right passphrase waits out the delay after a wrong one.
    const early = await h.dispatch('store:unlock', { passphrase: PASSPHRASE });
    expect(early).toMatchObject({ ok: false, error: { code: ErrorCode.UNLOCK_THROTTLED } });
    expect(JSON.stringify(early)).not.toContain(PASSPHRASE);
    const state = await h.dispatch('store:lock-state', {});
    expect(state.ok && (state.value as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(0);

    await new Promise((resolve) => setTimeout(resolve, UNLOCK_FIRST_DELAY_MS + 50));
    expect(await h.dispatch('store:unlock', { passphrase: PASSPHRASE })).toEqual({ ok: true, value: { state: 'unlocked', dataDir } });
    expect(await h.dispatch('sessions:list', {})).toEqual({ ok: true, value: [] });
    expect(h.services()).toBeDefined();
    const key = await requestPassphraseKey(dataDir, await keyId());
    expect(key.keyId).toBe(await keyId());
    expect(events).toContain('store:lock-changed:{"state":"unlocked"}');

    expect(await h.dispatch('store:lock', {})).toEqual({ ok: true, value: { state: 'locked', dataDir } });
    expect(heldPassphraseKey(dataDir)).toBeUndefined();
    expect(h.services()).toBeUndefined();
    expect(await h.dispatch('sessions:list', {})).toMatchObject({ ok: false, error: { code: ErrorCode.LOCKED } });
    await expect(requestPassphraseKey(dataDir, await keyId())).rejects.toMatchObject({ code: 'KEY_UNAVAILABLE' });
    expect(events).toContain('store:lock-changed:{"state":"locked"}');

    // And it opens again (no wrong attempt since the success: no delay).
    expect(await h.dispatch('store:unlock', { passphrase: PASSPHRASE })).toMatchObject({ ok: true, value: { state: 'unlocked' } });
    // Nothing under the data directory holds the passphrase.
    for (const file of await listFiles(dataDir)) expect((await readFile(file)).includes(Buffer.from(PASSPHRASE)), file).toBe(false);
  });

  it('refuses malformed unlock requests with BAD_REQUEST, never counting them as wrong guesses and never echoing them', async () => {
    const h = await start();
    const long = 'x'.repeat(1025);
    const cases: unknown[] = [undefined, null, {}, { passphrase: '' }, { passphrase: 42 }, { passphrase: ['a'] }, { passphrase: long }, { passphrase: null }, { other: 'x' }, 'text', 7];
    for (let i = 0; i < 200; i += 1) cases.push({ passphrase: i % 2 ? i : { nested: `s${i}` } });
    for (const payload of cases) {
      const answer = await h.dispatch('store:unlock', payload);
      expect(answer, JSON.stringify(payload)).toMatchObject({ ok: false, error: { code: ErrorCode.BAD_REQUEST } });
      expect(JSON.stringify(answer)).not.toContain(long);
    }
    expect(await h.dispatch('store:lock-state', {})).toEqual({ ok: true, value: { state: 'locked', dataDir } });
    expect(await h.dispatch('store:unlock', { passphrase: PASSPHRASE })).toMatchObject({ ok: true, value: { state: 'unlocked' } });
  });
});

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
