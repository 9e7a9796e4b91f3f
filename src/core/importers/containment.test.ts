import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isImporterError } from './errors.js';
import { readAgentSession } from './read-session.js';
import { scanAgentSessions } from './scan.js';
import { claude, claudeLogPath, codex, codexLogPath, writeLog } from './test-fixtures/build-logs.js';

/**
 * The importers read only inside ~/.claude and ~/.codex: a link out of them is not followed
 * (files or folders), and a file that is not a session log of the tool is refused by content,
 * without quoting it.
 */
const ID_IN = 'aaaaaaaa-0000-4000-8000-000000000001';
const ID_OUT = 'cccccccc-0000-4000-8000-000000000003';
const SHADOW = 'root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n';

let home: string;
let outside: string;
let env: NodeJS.ProcessEnv;

function session(id: string, prompt: string, cwd: string): unknown[] {
  return [
    claude.user({ uuid: `${id}-u1`, cwd, sessionId: id }, prompt),
    claude.assistant({ uuid: `${id}-a1`, parentUuid: `${id}-u1`, cwd, sessionId: id }, `${id}-m1`, claude.text('ok')),
  ];
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'baton-contain-home-'));
  outside = await mkdtemp(join(tmpdir(), 'baton-contain-out-'));
  env = { HOME: home };
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('importers stay inside the tool folders', () => {
  it('does not follow a file link or a folder link out of ~/.claude, and shows no title from the target', async () => {
    await writeLog(claudeLogPath(home, '/w/in', ID_IN), session(ID_IN, 'Inside prompt', '/w/in'));
    // A session-shaped file outside, linked in as a file and as a whole project folder.
    const foreign = await writeLog(join(outside, 'project', `${ID_OUT}.jsonl`), session(ID_OUT, 'FOREIGN SECRET TITLE', '/w/out'));
    const projects = join(home, '.claude', 'projects');
    await symlink(foreign, join(projects, '-w-in', `${ID_OUT}.jsonl`));
    await symlink(join(outside, 'project'), join(projects, '-w-out'));
    await writeFile(join(outside, 'shadow'), SHADOW);
    await symlink(join(outside, 'shadow'), join(projects, '-w-in', 'dddddddd-0000-4000-8000-000000000004.jsonl'));

    const { candidates, stats } = await scanAgentSessions({ env });
    expect(candidates.map((c) => c.externalId)).toEqual([ID_IN]);
    expect(JSON.stringify(candidates)).not.toContain('FOREIGN');
    expect(JSON.stringify(candidates)).not.toContain('root:');
    expect(stats.skippedReasons['symbolic link out of the tool folder']).toBe(3);
    // By id, the foreign session is not found either (discovery does not see it).
    await expect(readAgentSession('claude', ID_OUT, env)).rejects.toSatisfy((e) => isImporterError(e, 'NOT_FOUND'));
  });

  it('follows a link that stays inside, and accepts ~/.claude itself being a link', async () => {
    const real = join(outside, 'dotfiles-claude');
    await writeLog(join(real, 'projects', '-w-a', `${ID_IN}.jsonl`), session(ID_IN, 'Via dotfiles', '/w/a'));
    await symlink(real, join(home, '.claude'));
    await symlink(join(real, 'projects', '-w-a'), join(real, 'projects', '-w-a-moved'));
    const { candidates } = await scanAgentSessions({ env });
    expect(candidates.map((c) => c.title)).toEqual(['Via dotfiles', 'Via dotfiles']);
  });

  it('does not follow a link out of ~/.codex/sessions, nor a sessions folder that is a link out', async () => {
    const id = '019b0000-0000-7000-8000-00000000000c';
    await writeLog(codexLogPath(join(outside, 'codex'), id), [codex.meta(id), codex.turnContext(), codex.message('user', 'FOREIGN codex'), codex.message('assistant', 'hi')]);
    await mkdir(join(home, '.codex'), { recursive: true });
    await symlink(join(outside, 'codex', 'sessions'), join(home, '.codex', 'sessions'));
    const { candidates, stats } = await scanAgentSessions({ env, source: 'codex' });
    expect(candidates).toEqual([]);
    expect(stats.skippedReasons['symbolic link out of the tool folder']).toBe(1);
  });
});

describe('--session PATH refuses what is not a session log of the tool', () => {
  it('refuses /etc/shadow-like content outside the tool folder, never quoting it', async () => {
    const shadow = join(outside, 'shadow');
    await writeFile(shadow, SHADOW);
    for (const source of ['claude', 'codex'] as const) {
      const error = await readAgentSession(source, shadow, env).catch((e: unknown) => e);
      expect(isImporterError(error, 'BAD_REQUEST')).toBe(true);
      expect((error as Error).message).toContain(shadow);
      expect((error as Error).message).toMatch(/does not start like a (Claude Code|Codex) session log/);
      expect((error as Error).message).not.toMatch(/root|daemon|\$6\$/);
    }
  });

  it('refuses a JSON file that is not a log of that tool, even inside the tool folder', async () => {
    const inside = join(home, '.claude', 'projects', '-w', `${ID_IN}.jsonl`);
    await mkdir(dirname(inside), { recursive: true });
    await writeFile(inside, '{"type":"user","note":"no session id here"}\n{"hello":"world"}\n');
    const error = await readAgentSession('claude', inside, env).catch((e: unknown) => e);
    expect(isImporterError(error, 'BAD_REQUEST')).toBe(true);
    expect((error as Error).message).toMatch(/is not a Claude Code session log: none of its 2 lines/);
    expect((error as Error).message).not.toContain('hello');
    // A Codex log offered as Claude's is refused too.
    const cx = await writeLog(codexLogPath(join(home, '.codex'), '019b0000-0000-7000-8000-00000000000d'), [codex.meta('019b0000-0000-7000-8000-00000000000d'), codex.message('user', 'x')]);
    await expect(readAgentSession('claude', cx, env)).rejects.toSatisfy((e) => isImporterError(e, 'BAD_REQUEST'));
  });

  it('accepts a real session log outside the tool folder (a copied log is clearly one)', async () => {
    const copied = await writeLog(join(outside, 'copied.jsonl'), session(ID_OUT, 'Copied log', '/w/c'));
    const s = await readAgentSession('claude', copied, env);
    expect(s.title).toBe('Copied log');
  });
});

describe('the scan cache holds no secret', () => {
  it('redacts a title taken from a prompt before importers-cache.json is written, and in the candidate', async () => {
    const token = 'gh' + 'p_' + 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZaB3d';
    await writeLog(claudeLogPath(home, '/w/s', ID_IN), session(ID_IN, `push with ${token}`, '/w/s'));
    const cacheFile = join(home, 'baton-data', 'importers-cache.json');
    const { candidates } = await scanAgentSessions({ env, cacheFile });
    expect(candidates[0]!.title).toBe('push with [REDACTED:github]');
    expect(await readFile(cacheFile, 'utf8')).not.toContain(token);
    const again = await scanAgentSessions({ env, cacheFile });
    expect(again.candidates[0]!.title).toBe('push with [REDACTED:github]');
  });
});
