import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../core/store/index.js';
import { buildProgram } from '../index.js';
import { completionSpec } from '../completion/spec.js';
import { fishScript, zshScript } from '../completion/scripts.js';

/**
 * The bash script from `baton completion bash`, sourced in a real bash; `baton` on its PATH is the
 * CLI from source, so `baton show <TAB>` asks the real index for session ids.
 */
const REPO = join(import.meta.dirname, '..', '..', '..');
const CLI = join(REPO, 'src', 'cli', 'run.ts');
let dir: string;
let script: string;
let env: NodeJS.ProcessEnv;
const ids: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-completion-'));
  env = { ...process.env, BATON_HOME: join(dir, 'data'), PATH: `${join(dir, 'bin')}:${process.env.PATH}` };
  await rm(join(dir, 'bin'), { recursive: true, force: true });
  execFileSync('mkdir', ['-p', join(dir, 'bin')]);
  await writeFile(join(dir, 'bin', 'baton'), `#!/bin/sh\ncd ${JSON.stringify(REPO)} && exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(CLI)} "$@"\n`);
  await chmod(join(dir, 'bin', 'baton'), 0o755);
  const store = await openStore(join(dir, 'data'));
  for (const title of ['first', 'second']) {
    ids.push((await store.createSession({ cwd: dir, gitRoot: null, branch: null, title, source: { tool: 'baton' }, holder: 'terminal' })).id);
  }
  await store.close();
  script = execFileSync(join(dir, 'bin', 'baton'), ['completion', 'bash'], { env, encoding: 'utf8' });
}, 30_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** COMPREPLY after Tab on `line` (the cursor at its end), from a real bash. */
function complete(line: string): Promise<string[]> {
  const words = line.split(' ');
  const program = `source /dev/stdin <<'BATON_EOF'\n${script}\nBATON_EOF\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMP_POINT=${line.length}\n_baton\nprintf '%s\\n' "\${COMPREPLY[@]}"`;
  return new Promise((resolve, reject) =>
    execFile('bash', ['--norc', '--noprofile', '-c', program], { env }, (error, stdout) => (error ? reject(error) : resolve(stdout.split('\n').filter(Boolean).sort()))),
  );
}

describe('baton completion bash', () => {
  it('registers _baton for baton', () => {
    expect(script).toContain('complete -F _baton baton');
  });

  it('`baton ha` completes to handoff', async () => {
    expect(await complete('baton ha')).toEqual(['handoff']);
  });

  it('`baton handoff --f` completes to --from', async () => {
    expect(await complete('baton handoff --f')).toEqual(['--from']);
  });

  it('`baton show <TAB>` offers the session ids of the index', async () => {
    expect(await complete('baton show ')).toEqual([...ids].sort());
  });

  it('`baton handoff --session <TAB>` offers them too, and --from offers the tools', async () => {
    expect(await complete(`baton handoff --session ${ids[0]!.slice(0, 6)}`)).toEqual(ids.filter((id) => id.startsWith(ids[0]!.slice(0, 6))).sort());
    expect(await complete('baton handoff --from ')).toEqual(['claude', 'codex']);
  });

  it('a subcommand and its options: `baton task re` and `baton task register --re`, `--rec`', async () => {
    expect(await complete('baton task re')).toEqual(['register', 'result']);
    expect(await complete('baton task register --rec')).toEqual(['--recoverable']);
    expect(await complete('baton task register --re')).toEqual(['--recoverable', '--relay']);
    expect(await complete('baton install ')).toEqual(['claude', 'codex']);
  });

  it('the value of an option is not taken for the command: `baton handoff --cwd x --l`', async () => {
    expect(await complete('baton handoff --cwd x --l')).toEqual(['--latest']);
  });
});

describe('zsh and fish scripts', () => {
  it('are generated from the same definitions', async () => {
    const spec = completionSpec(await buildProgram());
    const zsh = zshScript(spec);
    expect(zsh).toMatch(/^# zsh completion for baton/);
    expect(zsh).toContain('complete -F _baton baton');
    expect(zsh).toContain('bashcompinit');
    const fish = fishScript(spec);
    expect(fish).toContain("complete -c baton -n __fish_use_subcommand -a handoff -d 'save a session and offer it to the Baton desktop app'");
    expect(fish).toContain("complete -c baton -n '__fish_seen_subcommand_from handoff' -l session -x -a '(baton completion --session-ids 2>/dev/null)'");
  });
});
