import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDataDir } from '../../core/tasks/test-support/endpoint.js';

/**
 * The store's truth through the real CLI in real processes: damage in the middle of a log is
 * said by `baton show` (human and --json) and listed by `baton doctor`; duplicate ids in
 * `baton handoff --messages` never leave a miscounted session.
 */
const CLI = join(import.meta.dirname, '..', 'run.ts');
let home: string;
let work: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function baton(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', CLI, ...args],
      { cwd: join(import.meta.dirname, '..', '..', '..'), env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: '', DISPLAY: '', WAYLAND_DISPLAY: '' } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const json = (run: Run) => JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;

async function handoff(lines: object[]): Promise<Run> {
  const file = join(work, 'messages.jsonl');
  await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  return baton(['handoff', '--messages', file, '--cwd', work, '--title', 'cli test', '--dry-run', '--no-launch', '--json']);
}

beforeEach(async () => {
  home = await tempDataDir('baton-cli-show-');
  work = join(home, 'work');
  await mkdir(work);
});
afterEach(() => removeDir(home));

describe('baton show and baton doctor report mid-log damage', () => {
  it('show says it (human and --json damage array) and doctor lists the session; nothing is cut', async () => {
    const saved = await handoff(Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` })));
    expect(saved.code, saved.stderr).toBe(0);
    const id = json(saved).sessionId as string;
    const log = join(home, 'sessions', id, 'messages.jsonl');
    const lines = (await readFile(log, 'utf8')).split('\n');
    const start = Buffer.byteLength(lines.slice(0, 20).map((l) => `${l}\n`).join(''));
    lines[20] = lines[20]!.replace('message 20', 'message XX');
    const end = start + Buffer.byteLength(lines[20]!) + 1;
    await writeFile(log, lines.join('\n'));
    const size = (await readFile(log)).length;

    const shown = await baton(['show', id, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const value = json(shown) as { messages: unknown[]; damage: Array<Record<string, unknown>> };
    expect(value.messages).toHaveLength(39);
    const sideFile = `messages.damaged-${start}-${end}.bin`;
    expect(value.damage).toEqual([expect.objectContaining({ file: 'messages.jsonl', start, end, sideFile })]);
    expect(await readFile(join(home, 'sessions', id, sideFile), 'utf8')).toContain('message XX');
    expect((await readFile(log)).length).toBe(size);

    const human = await baton(['show', id]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/DAMAGED: 1 damaged part of this session's log was skipped/);
    expect(human.stdout).toContain(`messages.jsonl bytes ${start}..${end}: kept in ${join(home, 'sessions', id, sideFile)}`);

    const doctor = await baton(['doctor', '--json']);
    const report = json(doctor) as { healthy: boolean; damagedSessions: Array<{ id: string; damage: Array<{ sideFile: string }> }>; checks: Array<{ name: string; ok: boolean }> };
    expect(report.healthy).toBe(false);
    expect(report.damagedSessions).toEqual([expect.objectContaining({ id, damage: [expect.objectContaining({ sideFile })] })]);
    expect(report.checks.find((c) => c.name.startsWith('sessions'))).toMatchObject({ ok: false });
    const doctorHuman = await baton(['doctor']);
    expect(doctorHuman.stdout).toMatch(new RegExp(`✗ sessions readable, no damaged logs: 1 damaged, 0 unreadable of 1:\\n\\s+${id} \\(cli test\\): messages.jsonl bytes ${start}..${end} kept in`));
  }, 60_000);

  it('doctor finds damage that no read had found yet, and a clean store passes the check', async () => {
    const clean = await handoff([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }]);
    const id = json(clean).sessionId as string;
    let report = json(await baton(['doctor', '--json'])) as { damagedSessions: unknown[]; checks: Array<{ name: string; ok: boolean; detail: string }> };
    expect(report.damagedSessions).toEqual([]);
    expect(report.checks.find((c) => c.name.startsWith('sessions'))).toMatchObject({ ok: true, detail: '1 session, none damaged' });
    const log = join(home, 'sessions', id, 'messages.jsonl');
    await writeFile(log, (await readFile(log, 'utf8')).replace('"content":"b"', '"content":"B"'));
    report = json(await baton(['doctor', '--json'])) as typeof report;
    expect(report.damagedSessions).toEqual([expect.objectContaining({ id })]);
    // A session whose session.json and every revision are unreadable is listed as unreadable, by id;
    // a directory that holds no session at all (approvals of a session Baton does not hold) is not.
    const other = json(await handoff([{ role: 'user', content: 'other' }])).sessionId as string;
    const otherDir = join(home, 'sessions', other);
    for (const name of (await readdir(otherDir)).filter((n) => /^session(\.rev-\d+)?\.json$/.test(n))) await writeFile(join(otherDir, name), 'garbage');
    await mkdir(join(home, 'sessions', 'not-a-session'));
    await writeFile(join(home, 'sessions', 'not-a-session', 'approvals.jsonl'), '');
    report = json(await baton(['doctor', '--json'])) as typeof report;
    const sessionsCheck = report.checks.find((c) => c.name.startsWith('sessions'))!;
    expect(sessionsCheck.detail).toMatch(new RegExp(`1 damaged, 1 unreadable of 2:[\\s\\S]*${other}: .*session\\.json is not valid JSON`));
    expect(sessionsCheck.detail).not.toContain('not-a-session');
  }, 60_000);
});

describe('baton handoff --messages with duplicate ids', () => {
  it('the same message twice is folded into one with a note: the session counts what it stores', async () => {
    const run = await handoff([
      { role: 'user', content: 'first', id: 'u-1' },
      { role: 'assistant', content: 'second', id: 'a-1' },
      { role: 'assistant', content: 'second', id: 'a-1' },
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const id = json(run).sessionId as string;
    const shown = json(await baton(['show', id, '--json'])) as { session: { messageCount: number }; messages: unknown[]; notes: string[] };
    expect(shown.messages).toHaveLength(2);
    expect(shown.session.messageCount).toBe(2);
    expect(shown.notes.join('\n')).toMatch(/message id "a-1" was given 2 times with the same content \(messages 2, 3\); it was stored once/);
    const list = json(await baton(['list', '--json'])) as { sessions?: Array<{ id: string; messageCount: number }> };
    expect(JSON.stringify(list)).toContain(`"messageCount":2`);
  }, 60_000);

  it('the same id on different messages refuses the whole handoff before anything is saved', async () => {
    const run = await handoff([
      { role: 'user', content: 'first', id: 'x' },
      { role: 'assistant', content: 'second', id: 'y' },
      { role: 'assistant', content: 'not the same', id: 'x' },
    ]);
    expect(run.code).not.toBe(0);
    const value = json(run);
    expect(value).toMatchObject({ ok: false, sessionId: null });
    expect(String(value.message)).toMatch(/could not be saved, so nothing was sent: .*messages 1 and 3 both have id "x" but differ/);
    const list = await baton(['list', '--json']);
    expect(list.stdout).not.toContain('cli test');
  }, 60_000);
});
