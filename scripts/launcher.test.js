// bin/baton.js runs `baton handoff` from its own bundle (dist/cli/baton-handoff.cjs, issue 20's
// CLI start-up) and everything else from the whole CLI. What runs must not depend on which bundle
// answered, nor on whether the handoff bundle or a code cache is there and current: a copy of
// the built launcher is run with the handoff bundle as built, without it, and with caches that V8
// must reject. Needs the build (scripts/test.sh builds before the unit tests).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLauncherCopy } from './launcher-copy.js';

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
let dir;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'baton-handoff.cjs'))) throw new Error('the build is missing: run npm run build:node first (npm test does)');
  dir = mkdtempSync(join(tmpdir(), 'baton-launcher-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of bin/ and dist/cli beside the real node_modules, changed by `alter`: its launcher. */
function install(name, alter) {
  return join(installLauncherCopy(dir, name, alter), 'bin', 'baton.js');
}

async function baton(bin, args, home) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env: { ...process.env, BATON_HOME: home, XDG_RUNTIME_DIR: '' }, cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** The parts of a --dry-run handoff's answer that do not name this run's ids, paths or times. */
function stable(stdout) {
  const answer = JSON.parse(stdout);
  return { ok: answer.ok, category: answer.category, exitCode: answer.exitCode, keys: Object.keys(answer).sort(), manifestKeys: Object.keys(answer.answer.manifest).sort() };
}

describe('bin/baton.js and the handoff bundle', () => {
  it('answers handoff the same from its own bundle, without it, and with stale or foreign code caches', async () => {
    const variants = {
      built: install('built', () => undefined),
      'no handoff bundle': install('no-bundle', (cli) => rmSync(join(cli, 'baton-handoff.cjs'))),
      'caches rejected': install('stale-cache', (cli) => {
        // Another Node/V8 build's cache, or a damaged one: V8 rejects it and compiles the source.
        writeFileSync(join(cli, 'baton-handoff.cjs.cache'), Buffer.alloc(4096, 7));
        writeFileSync(join(cli, 'baton.cjs.cache'), Buffer.from('not a cache'));
      }),
      'no caches': install('no-cache', (cli) => {
        rmSync(join(cli, 'baton-handoff.cjs.cache'));
        rmSync(join(cli, 'baton.cjs.cache'));
      }),
    };
    const messages = join(dir, 'm.jsonl');
    writeFileSync(messages, '{"role":"user","content":"hello"}\n{"role":"assistant","content":"hi"}\n');
    const results = {};
    for (const [name, bin] of Object.entries(variants)) {
      const home = join(dir, `home-${name.replace(/ /g, '-')}`);
      const help = await baton(bin, ['handoff', '--help'], home);
      const badFlag = await baton(bin, ['handoff', '--bogus'], home);
      const badInput = await baton(bin, ['handoff', '--messages', join(dir, 'missing.jsonl'), '--json'], home);
      const dryRun = await baton(bin, ['handoff', '--cwd', dir, '--title', 't', '--messages', messages, '--dry-run', '--no-launch', '--json'], home);
      expect(dryRun.code, `${name}: ${dryRun.stderr}`).toBe(0);
      results[name] = {
        help: [help.code, help.stdout],
        badFlag: [badFlag.code, badFlag.stderr],
        badInput: [badInput.code, JSON.parse(badInput.stdout).code ?? JSON.parse(badInput.stdout).error?.code ?? JSON.parse(badInput.stdout).ok],
        dryRun: stable(dryRun.stdout),
      };
    }
    expect(results.built.help[0]).toBe(0);
    expect(results.built.help[1]).toContain('--messages <file>');
    expect(results.built.badFlag[0]).toBe(2);
    expect(results.built.dryRun).toMatchObject({ ok: true, category: 'accepted', exitCode: 0 });
    for (const name of Object.keys(variants)) expect(results[name], name).toEqual(results.built);
  }, 60_000);

  it.each(['baton-handoff.cjs', 'baton-list-local.cjs', 'baton-resume.cjs'])('%s is ASCII only (one byte a character in V8), its escaped regex literals still matching what they matched', async (bundle) => {
    const source = readFileSync(join(ROOT, 'dist', 'cli', bundle));
    expect(source.findIndex((byte) => byte > 0x7f)).toBe(-1);
    // trim-tool-output.ts's error-line pattern was `…|✗|✘|×/i` in the source: escaped, same matches.
    const pattern = /segmentation fault\)\\b\|\\bERR!\|(\\u2717)\|(\\u2718)\|(\\u00d7)\/i/.exec(source.toString('latin1'));
    expect(pattern, 'the escaped error-line pattern').not.toBeNull();
    const escaped = new RegExp(`${pattern[1]}|${pattern[2]}|${pattern[3]}`, 'i');
    expect(['✗ failed', '✘', '×', 'ok'].map((line) => escaped.test(line))).toEqual([true, true, true, false]);
  });

  it('runs every other command from the whole CLI, even when only the handoff bundle would be current', async () => {
    const bin = install('other-commands', (cli) => writeFileSync(join(cli, 'baton-handoff.cjs'), 'throw new Error("the handoff bundle ran for another command");'));
    const version = await baton(bin, ['--version'], join(dir, 'home-other'));
    expect(version).toMatchObject({ code: 0 });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const list = await baton(bin, ['list', '--json', '--no-host', '--no-agents'], join(dir, 'home-other'));
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ ok: true });
    // The same broken bundle is what `baton handoff` would run: proof the copy is the one used.
    const handoff = await baton(bin, ['handoff', '--help'], join(dir, 'home-other'));
    expect(handoff.code).not.toBe(0);
    expect(handoff.stderr).toContain('the handoff bundle ran for another command');
  }, 60_000);

  it('runs `baton resume` alone from the resume bundle and answers the same without it or with a foreign cache; `resume ID` uses the whole CLI', async () => {
    const home = join(dir, 'home-resume');
    const variants = {
      built: install('resume-built', () => undefined),
      'no resume bundle': install('resume-none', (cli) => rmSync(join(cli, 'baton-resume.cjs'))),
      'foreign cache': install('resume-cache', (cli) => writeFileSync(join(cli, 'baton-resume.cjs.cache'), Buffer.alloc(4096, 7))),
      // The hosted picker's bundle (src/cli/picker-main.ts) declines off a terminal, with or without it.
      'no picker bundle': install('resume-no-picker', (cli) => rmSync(join(cli, 'baton-picker.cjs'))),
      'foreign picker cache': install('resume-picker-cache', (cli) => writeFileSync(join(cli, 'baton-picker.cjs.cache'), Buffer.alloc(4096, 7))),
    };
    const answers = {};
    for (const [name, bin] of Object.entries(variants)) {
      // Off a terminal the picker refuses with a usage error; from every bundle alike.
      const off = await baton(bin, ['resume'], home);
      const json = await baton(bin, ['resume', '--json'], home);
      answers[name] = { off: [off.code, off.stderr], json: [json.code, JSON.parse(json.stdout).category] };
    }
    expect(answers.built.off[0]).toBe(2);
    expect(answers.built.off[1]).toContain('the picker runs on a terminal only');
    for (const name of Object.keys(variants)) expect(answers[name], name).toEqual(answers.built);

    const bin = install('resume-broken', (cli) => writeFileSync(join(cli, 'baton-resume.cjs'), 'throw new Error("the resume bundle ran");'));
    const picker = await baton(bin, ['resume'], home);
    expect(picker.stderr).toContain('the resume bundle ran');
    const byId = await baton(bin, ['resume', 'nope', '--json'], home);
    expect(byId.stderr).not.toContain('the resume bundle ran');
    expect(JSON.parse(byId.stdout)).toMatchObject({ ok: false });
  }, 60_000);

  it('runs `baton show` from the show bundle and prints the same bytes without it or with a foreign cache; other commands use the whole CLI', async () => {
    const home = join(dir, 'home-show');
    const messages = join(dir, 'show.jsonl');
    writeFileSync(messages, `${Array.from({ length: 50 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `m${i} "é" \\ 😀` })).join('\n')}\n`);
    // No desktop here: the handoff saves the session and names it.
    const landed = await baton(install('show-land', () => undefined), ['handoff', '--cwd', dir, '--title', 'show', '--messages', messages, '--no-launch', '--json'], home);
    const id = JSON.parse(landed.stdout).sessionId;
    expect(id, landed.stdout).toMatch(/^s-/);
    const variants = {
      built: install('show-built', () => undefined),
      'no show bundle': install('show-none', (cli) => rmSync(join(cli, 'baton-show.cjs'))),
      'foreign cache': install('show-cache', (cli) => writeFileSync(join(cli, 'baton-show.cjs.cache'), Buffer.alloc(4096, 7))),
    };
    const answers = {};
    for (const [name, bin] of Object.entries(variants)) {
      const all = await baton(bin, ['show', id, '--all', '--json'], home);
      const text = await baton(bin, ['show', id], home);
      const missing = await baton(bin, ['show', 's-nope', '--json'], home);
      answers[name] = { all: [all.code, all.stdout], text: [text.code, text.stdout], missing: [missing.code, missing.stdout] };
    }
    expect(answers.built.all[0]).toBe(0);
    expect(JSON.parse(answers.built.all[1]).messages).toHaveLength(50);
    expect(JSON.parse(answers.built.missing[1])).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    for (const name of Object.keys(variants)) expect(answers[name], name).toEqual(answers.built);

    const bin = install('show-broken', (cli) => writeFileSync(join(cli, 'baton-show.cjs'), 'throw new Error("the show bundle ran");'));
    expect((await baton(bin, ['show', id, '--json'], home)).stderr).toContain('the show bundle ran');
    const list = await baton(bin, ['list', '--json', '--no-host', '--no-agents'], home);
    expect(list.stderr).not.toContain('the show bundle ran');
    expect(JSON.parse(list.stdout)).toMatchObject({ ok: true });
  }, 60_000);
  it('runs `baton list` from the list bundle when no host answers, and lists the same without it or with a foreign cache; other commands use the whole CLI', async () => {
    // Claude Code sessions under a HOME of our own, their folders dated back so a second listing is read from the index.
    const home = join(dir, 'list-home');
    const project = join(home, '.claude', 'projects', '-work');
    mkdirSync(project, { recursive: true });
    for (let i = 0; i < 3; i++) {
      const id = `00000000-0000-4000-8000-00000000000${i}`;
      writeFileSync(join(project, `${id}.jsonl`), `${JSON.stringify({ type: 'user', uuid: `10000000-0000-4000-8000-00000000000${i}`, sessionId: id, cwd: '/work', timestamp: `2026-01-0${i + 1}T00:00:00.000Z`, message: { role: 'user', content: `session ${i} "é" 😀` } })}\n`);
    }
    const past = new Date(Date.now() - 3_600_000);
    for (const d of [project, join(home, '.claude', 'projects'), join(home, '.claude'), home]) utimesSync(d, past, past);
    const list = async (bin, args, data) => {
      try {
        const { stdout, stderr } = await run(process.execPath, [bin, 'list', ...args], { env: { ...process.env, HOME: home, BATON_HOME: data, XDG_RUNTIME_DIR: join(data, 'run') }, cwd: dir });
        return { code: 0, stdout: stdout.replace(/"ms":\d+/, '"ms":0'), stderr };
      } catch (error) {
        return { code: error.code, stdout: error.stdout, stderr: error.stderr };
      }
    };
    const variants = {
      built: install('list-built', () => undefined),
      'no list bundle': install('list-none', (cli) => rmSync(join(cli, 'baton-list-local.cjs'))),
      'foreign cache': install('list-cache', (cli) => writeFileSync(join(cli, 'baton-list-local.cjs.cache'), Buffer.alloc(4096, 7))),
      // The list bundle loads zod and secretlint from side bundles (scripts/build-cli.js): without them the whole CLI answers.
      'no side bundles': install('list-no-side', (cli) => ['baton-zod.cjs', 'baton-secretlint.cjs'].forEach((file) => rmSync(join(cli, file)))),
    };
    const answers = {};
    for (const [name, bin] of Object.entries(variants)) {
      const data = join(dir, `list-data-${name.replace(/ /g, '-')}`);
      const cold = await list(bin, ['--json', '--no-host'], data);
      const warm = await list(bin, ['--json'], data);
      const limited = await list(bin, ['--json', '--limit', '1'], data);
      const people = await list(bin, [], data);
      const bad = await list(bin, ['--json', '--limit', 'x'], data);
      answers[name] = { cold: [cold.code, cold.stdout], warm: [warm.code, warm.stdout], limited: [limited.code, limited.stdout], people: [people.code, people.stdout], bad: [bad.code, bad.stdout] };
    }
    const cold = JSON.parse(answers.built.cold[1]);
    expect(cold).toMatchObject({ ok: true, total: 3, shown: 3 });
    expect(answers.built.warm).toEqual(answers.built.cold);
    expect(JSON.parse(answers.built.limited[1])).toMatchObject({ ok: true, total: 3, shown: 1 });
    expect(answers.built.people[1]).toContain('session 2');
    expect(answers.built.bad[0]).toBe(2);
    for (const name of Object.keys(variants)) expect(answers[name], name).toEqual(answers.built);

    const bin = install('list-broken', (cli) => writeFileSync(join(cli, 'baton-list-local.cjs'), 'throw new Error("the list bundle ran");'));
    const data = join(dir, 'list-data-broken');
    expect((await list(bin, ['--json'], data)).stderr).toContain('the list bundle ran');
    const version = await baton(bin, ['--version'], data);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stderr).not.toContain('the list bundle ran');
  }, 60_000);
});
