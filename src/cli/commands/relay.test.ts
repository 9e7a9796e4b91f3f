import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayConfigPath } from '../../core/relay/config.js';
import { freePort, startNatsServer, type NatsServerHandle } from '../../core/relay/test-support/nats-server.js';
import { batonCli, spawnBatonCli } from '../../core/relay/test-support/baton-cli.js';

let server: NatsServerHandle;
let home: string;

beforeAll(async () => {
  server = await startNatsServer();
  home = await mkdtemp(join(tmpdir(), 'baton-relay-cli-'));
});
afterAll(async () => {
  await server?.stop();
  await rm(home, { recursive: true, force: true });
});

describe('baton relay (real nats-server)', () => {
  it('connects, creates the buckets, keeps the configuration 0600, reports status, and disconnects', async () => {
    const connected = await batonCli(home, ['relay', 'connect', server.url, '--json']);
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.json).toMatchObject({ command: 'relay connect', ok: true, url: server.url });
    expect(connected.json.created).toEqual(expect.arrayContaining(['BATON_HANDOFFS', 'baton_heads', 'baton_blobs']));
    expect((await stat(relayConfigPath(home))).mode & 0o777).toBe(0o600);

    const status = await batonCli(home, ['relay', 'status', '--json']);
    expect(status.code, status.stdout).toBe(0);
    expect(status.json).toMatchObject({ ok: true, configured: true, reachable: true, jetstream: true, missing: [] });
    expect(Math.abs(status.json.clockSkewMs as number)).toBeLessThan(2_000);

    const gone = await batonCli(home, ['relay', 'disconnect', '--json']);
    expect(gone.json).toMatchObject({ ok: true, removed: true });
    const after = await batonCli(home, ['relay', 'status', '--json']);
    expect(after.json).toMatchObject({ ok: true, configured: false });
  });

  it('refuses a URL that is not nats:// with a usage error', async () => {
    const bad = await batonCli(home, ['relay', 'connect', 'http://127.0.0.1:4222', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json).toMatchObject({ ok: false, code: 'BAD_ARGUMENT' });
  });

  it('reports an unreachable relay as a failure and keeps no configuration', async () => {
    const port = await freePort();
    const down = await batonCli(home, ['relay', 'connect', `nats://127.0.0.1:${port}`, '--json']);
    expect(down.code).toBe(1);
    expect(down.json).toMatchObject({ ok: false, code: 'RELAY_UNREACHABLE' });
    await expect(stat(relayConfigPath(home))).rejects.toThrow();
  });
});

describe('baton device (real nats-server, two data directories)', () => {
  it('pairs with a printed code, lists both sides with fingerprints, and removes', async () => {
    const a = await mkdtemp(join(tmpdir(), 'baton-dev-a-'));
    const b = await mkdtemp(join(tmpdir(), 'baton-dev-b-'));
    try {
      for (const home of [a, b]) expect((await batonCli(home, ['relay', 'connect', server.url, '--json'])).code).toBe(0);
      const pair = spawnBatonCli(a, ['device', 'pair', '--json', '--timeout', '30'], { BATON_DEVICE_NAME: 'laptop' });
      const waiting = JSON.parse(await pair.nextLine()) as { code: string; link: string; self: { fingerprint: string } };
      expect(waiting.link).toMatch(/^baton:\/\/pair\?code=[A-Z2-7]{32}$/);
      const joined = await batonCli(b, ['device', 'join', waiting.code, '--json'], { env: { BATON_DEVICE_NAME: 'devbox' } });
      expect(joined.code, joined.stdout + joined.stderr).toBe(0);
      expect(joined.json).toMatchObject({ device: { name: 'laptop', fingerprint: waiting.self.fingerprint } });
      const paired = JSON.parse(await pair.nextLine()) as { phase: string; device: { name: string; fingerprint: string } };
      expect(paired).toMatchObject({ phase: 'paired', device: { name: 'devbox', fingerprint: (joined.json.self as { fingerprint: string }).fingerprint } });
      expect(await pair.exit).toBe(0);

      const listed = await batonCli(a, ['device', 'list', '--json']);
      expect((listed.json.devices as { name: string }[]).map((d) => d.name)).toEqual(['devbox']);
      const again = await batonCli(b, ['device', 'join', waiting.code, '--json']);
      expect(again.code).toBe(1);
      const removed = await batonCli(a, ['device', 'remove', 'devbox', '--json']);
      expect(removed.json).toMatchObject({ ok: true, removed: { name: 'devbox' } });
      expect((await batonCli(a, ['device', 'list', '--json'])).json.devices).toEqual([]);
      expect((await batonCli(a, ['device', 'remove', 'devbox', '--json'])).code).toBe(1);
    } finally {
      await rm(a, { recursive: true, force: true });
      await rm(b, { recursive: true, force: true });
    }
  });
});

describe('baton doctor with a relay', () => {
  it('checks the relay (reachable, JetStream, buckets, clock skew) and says where the device keys are', async () => {
    const d = await mkdtemp(join(tmpdir(), 'baton-doctor-relay-'));
    try {
      expect((await batonCli(d, ['relay', 'connect', server.url, '--json'])).code).toBe(0);
      await batonCli(d, ['device', 'list', '--json']); // makes the identity
      const report = (await batonCli(d, ['doctor', '--json'])).json as { checks: Array<{ name: string; ok: boolean; detail: string }> };
      expect(report.checks.find((c) => c.name === 'relay')).toMatchObject({ ok: true, detail: expect.stringContaining('clock skew') });
      expect(report.checks.find((c) => c.name === 'device keys')).toMatchObject({ ok: true, detail: expect.stringMatching(/mode 600, not in the OS keychain/) });
      await batonCli(d, ['relay', 'connect', 'nats://127.0.0.1:1', '--json']); // refused: the good configuration stays
      const port = await freePort();
      const { writeRelayConfig } = await import('../../core/relay/config.js');
      await writeRelayConfig(d, { version: 1, url: `nats://127.0.0.1:${port}`, connectedAt: '' });
      const down = (await batonCli(d, ['doctor', '--json'])).json as { checks: Array<{ name: string; ok: boolean; fix?: string }> };
      expect(down.checks.find((c) => c.name === 'relay')).toMatchObject({ ok: false, fix: expect.stringContaining('nats-server') });
    } finally {
      await rm(d, { recursive: true, force: true });
    }
  });
});
