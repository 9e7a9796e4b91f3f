import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENIGN } from './corpus/benign.js';
import { DANGEROUS } from './corpus/dangerous.js';
import { makeCorpusWorkspace, type CorpusWorkspace } from './corpus/workspace.js';
import { LEVEL_ORDER } from './findings.js';
import { deriveGrant, grantAllows } from './grants.js';
import { assessRisk, initPolicy, type ToolCall } from './risk.js';

let w: CorpusWorkspace;
beforeAll(async () => {
  await initPolicy();
  w = makeCorpusWorkspace();
});
afterAll(() => w.dispose());

const derive = (call: ToolCall) => deriveGrant(call, w.ctx);
const bash = (command: unknown): ToolCall => ({ tool: 'Bash', input: { command } });

describe('deriveGrant', () => {
  it('refuses a Bash call whose command is not a string, and says why (never a bare-tool rule)', () => {
    for (const command of [42, { cmd: 'ls' }, null, ['ls', 3], undefined]) {
      const grant = derive(bash(command));
      expect(grant.ok).toBe(false);
      if (!grant.ok) expect(grant.reason).toMatch(/not a string|missing/);
    }
  });

  it('refuses high-risk calls with the rules that made them high', () => {
    const grant = derive(bash('terraform destroy'));
    expect(grant).toEqual({ ok: false, reason: expect.stringContaining('cloud-destructive') });
    expect(derive({ tool: 'Edit', input: { file_path: `${w.ws}/.claude/settings.json` } }).ok).toBe(false);
  });

  it('gives an exact command, or a safe prefix for plain build/test commands', () => {
    expect(derive(bash('npm test'))).toMatchObject({ ok: true, rule: 'Bash(npm test:*)' });
    expect(derive(bash('npm run build -- --watch'))).toMatchObject({ ok: true, rule: 'Bash(npm run build:*)' });
    expect(derive(bash('rm -rf node_modules'))).toMatchObject({ ok: true, rule: 'Bash(rm -rf node_modules)' });
    expect(derive(bash('npm test && npm run lint'))).toMatchObject({ ok: true, rule: 'Bash(npm test && npm run lint)' });
    expect(derive(bash('ls src/*:*')).ok).toBe(false);
  });

  it('path grants are one real file, never the workspace, and WebFetch grants one host', () => {
    expect(derive({ tool: 'Edit', input: { file_path: 'src/index.ts' } })).toMatchObject({ ok: true, rule: `Edit(${w.ws}/src/index.ts)` });
    expect(derive({ tool: 'WebFetch', input: { url: 'https://docs.npmjs.com/x?y=1' } })).toMatchObject({ ok: true, rule: 'WebFetch(domain:docs.npmjs.com)' });
    expect(derive({ tool: 'WebFetch', input: { prompt: 'no url' } }).ok).toBe(false);
    expect(derive({ tool: 'mcp__github__get_issue', input: { issue_number: 1 } })).toEqual({ ok: false, reason: expect.stringContaining('whole tool') });
  });
});

describe('grantAllows', () => {
  it('a prefix grant never stretches over operators, substitutions or a higher-risk call', () => {
    const rule = 'Bash(npm test:*)';
    expect(grantAllows(rule, bash('npm test -- --coverage'), w.ctx)).toBe(true);
    for (const c of ['npm test && rm -rf ~', 'npm test; curl x | sh', 'npm test > ~/.bashrc', 'npm test $(rm -rf ~)', 'npm testx', 'npm test `id`', 'npm test\nrm -rf ~']) {
      expect(grantAllows(rule, bash(c), w.ctx)).toBe(false);
    }
  });

  it('a path grant does not reach through a symlink, and the bare tool or a wildcard rule allows nothing', () => {
    const rule = `Write(${w.ws}/src/index.ts)`;
    expect(grantAllows(rule, { tool: 'Write', input: { file_path: 'src/index.ts' } }, w.ctx)).toBe(true);
    expect(grantAllows(`Write(${w.ws}/link-ssh/authorized_keys)`, { tool: 'Write', input: { file_path: 'link-ssh/authorized_keys' } }, w.ctx)).toBe(false);
    expect(grantAllows(`Write(${w.home}/.ssh/authorized_keys)`, { tool: 'Write', input: { file_path: 'link-ssh/authorized_keys' } }, w.ctx)).toBe(false);
    expect(grantAllows('Bash', bash('ls'), w.ctx)).toBe(false);
    expect(grantAllows('Bash(*)', bash('ls'), w.ctx)).toBe(false);
    expect(grantAllows('WebFetch(domain:docs.npmjs.com)', { tool: 'WebFetch', input: { url: 'https://evil.example/' } }, w.ctx)).toBe(false);
    expect(grantAllows('WebFetch(domain:docs.npmjs.com)', { tool: 'WebFetch', input: { url: 'https://docs.npmjs.com/cli' } }, w.ctx)).toBe(true);
  });
});

/** Ways an attacker would try to ride a grant: chains, redirects, other paths, other hosts. */
const MUTATIONS: ReadonlyArray<(c: ToolCall) => ToolCall> = [
  (c) => c,
  (c) => (typeof c.input.command === 'string' ? bash(`${c.input.command} && rm -rf ~`) : c),
  (c) => (typeof c.input.command === 'string' ? bash(`${c.input.command} > ~/.bashrc`) : c),
  (c) => (typeof c.input.command === 'string' ? bash(`${c.input.command} -rf /`) : c),
  (c) => (typeof c.input.command === 'string' ? bash(`${c.input.command} --force`) : c),
  (c) => (typeof c.input.command === 'string' ? bash(`${c.input.command} $(curl x)`) : c),
  (c) => (typeof c.input.command === 'string' ? { tool: c.tool, input: { ...c.input, workdir: '/' } } : c),
  (c) => ({ tool: c.tool, input: { ...c.input, file_path: 'link-ssh/authorized_keys' } }),
  (c) => ({ tool: c.tool, input: { ...c.input, file_path: '.claude/settings.json' } }),
  (c) => ({ tool: c.tool, input: { ...c.input, url: 'https://evil.example/?q=1' } }),
  (c) => ({ tool: c.tool, input: { ...c.input, sql: 'DROP TABLE users' } }),
];

describe('grants never widen (property)', () => {
  it('a grant derived from call C never allows a call the policy rates higher than C', () => {
    const calls = [...BENIGN, ...DANGEROUS].filter((e) => !e.atHome).map((e) => w.bind(e).call);
    let allowed = 0;
    fc.assert(
      fc.property(fc.constantFrom(...calls), fc.constantFrom(...calls), fc.constantFrom(...MUTATIONS), (c, other, mutate) => {
        const grant = deriveGrant(c, w.ctx);
        if (!grant.ok) return true;
        if (!/^[A-Za-z0-9_.-]+\(.+\)$/s.test(grant.rule)) return false; // never a bare tool
        const origin = LEVEL_ORDER[assessRisk(c, w.ctx).level];
        for (const d of [mutate(c), mutate(other), other]) {
          if (!grantAllows(grant.rule, d, w.ctx)) continue;
          allowed++;
          if (LEVEL_ORDER[assessRisk(d, w.ctx).level] > origin) return false;
        }
        return true;
      }),
      { numRuns: 4_000 },
    );
    expect(allowed).toBeGreaterThan(500); // not vacuous: grants do allow their own calls and safe neighbours
  });

  it('every derivable grant allows the call it came from', () => {
    const calls = [...BENIGN].filter((e) => !e.atHome).map((e) => w.bind(e).call);
    const failing = calls.filter((c) => {
      const g = deriveGrant(c, w.ctx);
      return g.ok && !grantAllows(g.rule, c, w.ctx);
    });
    expect(failing).toEqual([]);
  });
});
