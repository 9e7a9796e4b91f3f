import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENIGN } from './corpus/benign.js';
import { DANGEROUS } from './corpus/dangerous.js';
import { makeCorpusWorkspace, type CorpusWorkspace } from './corpus/workspace.js';
import { LEVEL_ORDER } from './findings.js';
import { assessRisk, initPolicy, type RiskContext } from './risk.js';

/**
 * Wrapping a command never lowers its risk: `bash -c '…'`, `sh -c`, `eval`, `sudo`, `env`, a `;`
 * or `&&` chain, a subshell, and wrappers of wrappers, for every Bash command of the corpus.
 */
let w: CorpusWorkspace;
beforeAll(async () => {
  await initPolicy();
  w = makeCorpusWorkspace();
});
afterAll(() => w.dispose());

const single = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const double = (s: string): string => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;

export const WRAPPERS: ReadonlyArray<[string, (c: string) => string]> = [
  ['bash -c', (c) => `bash -c ${single(c)}`],
  ['sh -c', (c) => `sh -c ${double(c)}`],
  ['eval', (c) => `eval ${single(c)}`],
  ['sudo', (c) => `sudo ${c}`],
  ['env', (c) => `env ${c}`],
  ['env VAR', (c) => `env FOO=1 ${c}`],
  ['; chain', (c) => `true; ${c}`],
  ['&& chain', (c) => `ls && ${c}`],
  ['chain after', (c) => `${c}\ntrue`],
  ['subshell', (c) => `(${c}\n)`],
  ['group', (c) => `{ ${c}\n}`],
  ['bash -lc', (c) => `bash -lc ${single(c)}`],
];

const COMMANDS = [...DANGEROUS, ...BENIGN].filter((e) => e.call.tool === 'Bash' && !e.atHome).map((e) => e.call.input.command as string);

function level(command: string, ctx: RiskContext): number {
  const bound = w.bind({ family: 'x', level: 'low', call: { tool: 'Bash', input: { command } } });
  return LEVEL_ORDER[assessRisk(bound.call, ctx).level];
}

describe('wrapping never lowers the risk (property)', () => {
  it('for any corpus command C and any one or two wrappers, level(wrap(C)) >= level(C)', () => {
    let raised = 0;
    fc.assert(
      fc.property(fc.constantFrom(...COMMANDS), fc.array(fc.constantFrom(...WRAPPERS), { minLength: 1, maxLength: 2 }), (command, wrappers) => {
        const base = level(command, w.ctx);
        const wrapped = wrappers.reduce((c, [, wrap]) => wrap(c), command);
        const after = level(wrapped, w.ctx);
        if (after > base) raised++;
        return after >= base;
      }),
      { numRuns: 3_000 },
    );
    expect(raised).toBeGreaterThan(0); // eval and sudo raise benign commands: the property is not vacuous
  });

  it.each(WRAPPERS.map(([name, wrap]) => [name, wrap] as const))('no corpus command is rated lower under %s (exhaustive)', (_name, wrap) => {
    const lowered = COMMANDS.filter((c) => level(wrap(c), w.ctx) < level(c, w.ctx));
    expect(lowered).toEqual([]);
  });
});
