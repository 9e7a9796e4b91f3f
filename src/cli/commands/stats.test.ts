import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_HOST_CAPABILITIES } from '../../core/host/capabilities.js';
import { startHostServices, type HostServices } from '../../core/host/host-services.js';
import { removeDir, tempDataDir } from '../../core/tasks/test-support/endpoint.js';

/** `baton handoff`, `baton resume` and `baton stats` as real processes against a real host. */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let root: string;
let dataDir: string;
let host: HostServices;

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

beforeEach(async () => {
  root = await tempDataDir('baton-cli-stats-');
  dataDir = join(root, 'data');
  await mkdir(join(root, 'work'));
  host = await startHostServices({ dataDir, kind: 'browser', capabilities: BROWSER_HOST_CAPABILITIES });
});
afterEach(async () => {
  await host.close();
  await removeDir(root);
});

describe('baton stats: session durations after resumption', () => {
  it('measures an accepted handoff until `baton resume`, in the CLI and in the stats panel', async () => {
    const messages = join(root, 'session.jsonl');
    await writeFile(messages, `${JSON.stringify({ role: 'user', content: 'Fix the date picker' })}\n${JSON.stringify({ role: 'assistant', content: 'Pinned TZ=UTC.' })}\n`);
    const handoff = await baton(['handoff', '--cwd', join(root, 'work'), '--messages', messages, '--no-launch', '--json']);
    expect(handoff.json).toMatchObject({ ok: true, category: 'accepted' });
    const sessionId = String(handoff.json.sessionId);

    const before = await baton(['stats', '--json']);
    expect((before.json.stats as { afterResumption: unknown }).afterResumption).toMatchObject({ count: 1, byEnd: { handoff: 0, resume: 0, 'last-activity': 1 } });

    expect((await baton(['resume', sessionId, '--json'])).code).toBe(0);
    const after = await baton(['stats', '--json']);
    const durations = (after.json.stats as { afterResumption: { count: number; p50: number; byEnd: Record<string, number>; buckets: { count: number }[] } }).afterResumption;
    expect(durations).toMatchObject({ count: 1, byEnd: { handoff: 0, resume: 1, 'last-activity': 0 } });
    expect(durations.p50).toBeGreaterThanOrEqual(0);
    expect(durations.p50).toBeLessThan(60_000);
    expect(durations.buckets[0]!.count).toBe(1);

    const text = await baton(['stats']);
    expect(text.stdout).toContain('Session durations after resumption (1 accepted handoff): p50');
    expect(text.stdout).toContain('ended by: next handoff 0, resume 1, last activity (still open) 0');

    // The stats panel reads the same figures through the UI contract.
    const panel = await host.dispatch('stats:get', {});
    expect(panel).toMatchObject({ ok: true, value: { afterResumption: { count: 1, byEnd: { resume: 1 } } } });
  }, 60_000);
});
