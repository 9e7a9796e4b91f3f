import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation } from '../../core/handoff/test-support/handoff-fixture.js';
import { openStore } from '../../core/store/index.js';

/** The lifecycle commands as a user runs them: the real CLI, two data directories (two machines). */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let root: string;
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function baton(home: 'a' | 'b', args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: join(import.meta.dirname, '..', '..', '..'), env: { ...process.env, HOME: join(root, 'home'), BATON_HOME: join(root, home), XDG_RUNTIME_DIR: join(root, `run-${home}`) }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const json = (run: Run) => JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

let ids: string[];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-cli-lifecycle-'));
  const store = await openStore(join(root, 'a'));
  ids = [];
  for (const title of ['first', 'second', 'third']) ids.push((await store.createSession({ cwd: root, gitRoot: null, branch: null, title, source: { tool: 'baton' }, holder: 'terminal' }, conversation(8))).id);
  await store.close();
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('baton export / import / archive / delete / purge', () => {
  it('exports a bundle and imports it on another data directory (unpaired: only with --trust), twice = duplicate', async () => {
    const file = join(root, 'first.baton');
    const exported = await baton('a', ['export', ids[0]!, '--out', file, '--json']);
    expect(json(exported)).toMatchObject({ ok: true, sessionId: ids[0], encryption: 'none', messages: 8 });
    expect(existsSync(file)).toBe(true);
    expect(json(await baton('a', ['export', ids[0]!, '--out', file, '--json']))).toMatchObject({ ok: false, code: 'EXISTS' });

    const refused = await baton('b', ['import', file, '--json']);
    expect(refused.code).toBe(1);
    expect(json(refused)).toMatchObject({ ok: false, code: 'UNVERIFIED_ORIGIN', entry: 'checksums.sig' });
    const trusted = await baton('b', ['import', file, '--trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).toContain('warning: Unverified origin');
    expect(json(await baton('b', ['import', file, '--trust', '--json']))).toMatchObject({ ok: true, status: 'duplicate', sessionId: ids[0] });
    expect((await baton('b', ['list', '--no-agents'])).stdout).toContain(ids[0]!);
  });

  it('a passphrase bundle needs the passphrase file; --plain with another choice is a usage error', async () => {
    const pass = join(root, 'pass.txt');
    await writeFile(pass, 'a long passphrase\n');
    const file = join(root, 'second.baton');
    expect(json(await baton('a', ['export', ids[1]!, '--out', file, '--passphrase-file', pass, '--json']))).toMatchObject({ ok: true, encryption: 'passphrase' });
    expect(json(await baton('b', ['import', file, '--trust', '--json']))).toMatchObject({ ok: false, code: 'NEEDS_PASSPHRASE' });
    expect(json(await baton('b', ['import', file, '--trust', '--passphrase-file', pass, '--json']))).toMatchObject({ ok: true, status: 'accepted' });
    expect((await baton('a', ['export', ids[1]!, '--plain', '--passphrase-file', pass])).code).toBe(2);
  });

  it('archives several ids at once; list --archived shows them; unarchive brings them back', async () => {
    expect((await baton('a', ['archive', ids[1]!, ids[2]!])).code).toBe(0);
    const live = await baton('a', ['list', '--no-agents']);
    expect(live.stdout).not.toContain(ids[1]!);
    const archived = await baton('a', ['list', '--no-agents', '--archived']);
    expect(archived.stdout).toContain(`${ids[2]!}`);
    expect(archived.stdout).toContain('[archived]');
    expect((await baton('a', ['unarchive', ids[1]!, ids[2]!])).code).toBe(0);
    expect((await baton('a', ['list', '--no-agents'])).stdout).toContain(ids[2]!);
  });

  it('stats shows disk use per state and the largest sessions', async () => {
    await baton('a', ['archive', ids[2]!]);
    const stats = json(await baton('a', ['stats', '--json'])) as { retention: { live: { sessions: number; bytes: number }; archived: { sessions: number }; largest: unknown[] } };
    expect(stats.retention.live.sessions).toBe(2);
    expect(stats.retention.archived.sessions).toBe(1);
    expect(stats.retention.largest).toHaveLength(3);
    expect((await baton('a', ['stats'])).stdout).toMatch(/Disk use: live 2 sessions, [\d.]+ KB; archived 1/);
  });

  it('delete without a terminal needs --yes, names what goes, then removes the session', async () => {
    const unconfirmed = await baton('a', ['delete', ids[0]!, '--json']);
    expect(json(unconfirmed)).toMatchObject({ ok: false, code: 'NOT_CONFIRMED', sessions: [{ sessionId: ids[0], title: 'first', messageCount: 8 }] });
    const deleted = await baton('a', ['delete', ids[0]!, '--yes', '--json']);
    expect(json(deleted)).toMatchObject({ ok: true, deleted: [{ sessionId: ids[0], title: 'first' }], refused: [] });
    expect((await baton('a', ['list', '--no-agents', '--archived'])).stdout).not.toContain(ids[0]!);
  });

  it('purge --dry-run lists with sizes and removes nothing; purge --yes empties the data directory', async () => {
    const dry = json(await baton('a', ['purge', '--dry-run', '--json'])) as { items: Array<{ kind: string; name: string; bytes: number }> };
    expect(dry.items.filter((i) => i.kind === 'session' || i.kind === 'archived').map((i) => i.name).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await baton('a', ['purge', '--dry-run'])).stdout).toMatch(/total\s+[\d.]+ KB/);
    expect((await baton('a', ['list', '--no-agents', '--archived'])).stdout).toContain(ids[1]!);
    expect(json(await baton('a', ['purge', '--json']))).toMatchObject({ ok: false, code: 'NOT_CONFIRMED' });
    expect(json(await baton('a', ['purge', '--yes', '--json']))).toMatchObject({ ok: true, dryRun: false });
    expect(json(await baton('a', ['purge', '--dry-run', '--json']))).toMatchObject({ items: [] });
    expect((await baton('a', ['list', '--no-agents', '--archived', '--json'])).code).toBe(0);
  });
});
