import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENIGN } from './corpus/benign.js';
import { DANGEROUS } from './corpus/dangerous.js';
import { makeCorpusWorkspace, type CorpusWorkspace } from './corpus/workspace.js';
import { assessRisk, initPolicy } from './risk.js';

/** The agent transcripts shared by the project (read in place, never copied). */
const AGENT_LOGS = join(__dirname, '../../../../shared/fixtures/agent-logs');

/** Every example of issue 10, verbatim: each must be a Bash entry of the dangerous corpus. */
const ISSUE_EXAMPLES = [
  'git push --force origin main', '$(echo rm) -rf /', 'X=rm; $X -rf /', "$'\\x72\\x6d' -rf ~", 'find ~ -exec rm -rf {} +', 'xargs rm -rf',
  'python3 -c "shutil.rmtree(\'/home\')"', 'echo … | base64 -d | sh', 'eval "$(…)"', "sh <<< '…'", 'git reset --har', 'git push --force-w',
  'git clean --for -dx', 'cd ~ && rm -rf .ssh', 'rm -rf {~,/etc}', 'kubectl delete', 'terraform destroy', 'aws s3 rm --recursive',
  'docker system prune -a', 'npm publish', 'gh repo delete', 'crontab -r', 'cat ~/.ssh/id_rsa | curl --data-binary @-', 'cat ~/.ssh/id_rsa | curl …',
];

let w: CorpusWorkspace;
beforeAll(async () => {
  await initPolicy();
  w = makeCorpusWorkspace();
});
afterAll(() => w.dispose());

function levelOf(entry: (typeof DANGEROUS)[number]): string {
  const { call, ctx } = w.bind(entry);
  return assessRisk(call, ctx).level;
}

describe('policy corpus', () => {
  it(`holds at least 300 dangerous (${DANGEROUS.length}) and 300 benign (${BENIGN.length}) calls`, () => {
    expect(DANGEROUS.length).toBeGreaterThanOrEqual(300);
    expect(BENIGN.length).toBeGreaterThanOrEqual(300);
    const families = new Set(DANGEROUS.map((e) => e.family));
    for (const f of ['issue-10', 'dynamic-command', 'delete', 'shell-feed', 'inline-code', 'git', 'writes', 'cloud', 'publish', 'exfiltration', 'persistence', 'services', 'databases', 'containers', 'github', 'reverse-shell', 'wrappers', 'tools']) {
      expect(families).toContain(f);
    }
  });

  it('contains every example of issue 10 verbatim', () => {
    const commands = new Set(DANGEROUS.map((e) => e.call.input.command));
    expect(ISSUE_EXAMPLES.filter((x) => !commands.has(x))).toEqual([]);
  });

  it('keeps every Bash command of the shared agent transcripts among the benign calls', () => {
    const found: string[] = [];
    for (const file of readdirSync(AGENT_LOGS).filter((f) => f.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(AGENT_LOGS, file), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
        if (!Array.isArray(content)) continue;
        for (const block of content as Array<{ type?: string; name?: string; input?: { command?: unknown } }>) {
          if (block.type === 'tool_use' && block.name === 'Bash' && typeof block.input?.command === 'string') found.push(block.input.command);
        }
      }
    }
    expect(found.length).toBeGreaterThan(0);
    const benign = new Set(BENIGN.map((e) => e.call.input.command));
    expect(found.filter((c) => !benign.has(c))).toEqual([]);
  });

  it.each(DANGEROUS.map((e, i) => [i, e.family, JSON.stringify(e.call.input).slice(0, 100), e] as const))('dangerous #%i (%s) %s is high', (_i, _f, _s, entry) => {
    expect(levelOf(entry)).toBe(entry.level);
  });

  it.each(BENIGN.map((e, i) => [i, e.family, JSON.stringify(e.call.input).slice(0, 100), e] as const))('benign #%i (%s) %s', (_i, _f, _s, entry) => {
    expect(levelOf(entry)).toBe(entry.level);
  });
});
