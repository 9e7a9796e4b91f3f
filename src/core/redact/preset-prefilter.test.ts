import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presetRulesFor } from './preset-prefilter.js';
import { lintWindow, PRESET_RULES } from './secretlint-preset.js';
import { BENIGN_CORPUS, SECRET_CORPUS } from './test-support/secret-corpus.js';

/**
 * The pre-filter is exact: linting a window with only the rules `presetRulesFor` picks gives
 * secretlint's findings with every rule, message for message (rule, range, text, data, order).
 */
async function expectSameFindings(window: string): Promise<void> {
  const plain = await lintWindow(window, PRESET_RULES);
  const rules = presetRulesFor(window);
  const filtered = rules.length === 0 ? [] : await lintWindow(window, rules);
  expect(filtered, JSON.stringify(window.slice(0, 300))).toEqual(plain);
}

const AGENT_LOGS = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'agent-logs');
const fixtureLines = ['claude-code-session.sample.jsonl', 'codex-rollout.sample.jsonl'].flatMap((name) =>
  readFileSync(join(AGENT_LOGS, name), 'utf8').split('\n').filter(Boolean),
);
/** The padding bench/store/big-import.ts grows every message with: most of the bench's text. */
const BENCH_PAD = ' The build passes; next the parser keeps each line once and the reader streams the rest.'.repeat(3);

const alnum = 'aB3dE5fG7hJ9kL2mN4pQ6rS8tV0wX1yZ';
const run = (n: number, alphabet = alnum, seed = 7) => Array.from({ length: n }, (_, i) => alphabet[(i * seed + 3) % alphabet.length]).join('');
const upperNum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64url = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const pem = (kind: string, newline: string) =>
  `-----BEGIN${kind}PRIVATE KEY-----${newline}MIIE${run(60, b64, 5)}${newline}${run(64, b64, 7)}${newline}-----END${kind}PRIVATE KEY-----`;
/** A 1Password service-account token: `ops_` and the base64 of a JSON object whose last group is `}` alone (fQ==). */
function opsToken(): string {
  let json = `{"email":"ejwe64@1passwordserviceaccounts.lcl","secretKey":"A3-C4ZJMN-PQTZTL","srpX":"${run(64, '0123456789abcdef', 5)}"}`;
  while (json.length % 3 !== 1) json = json.replace('"email":"', '"email":"x');
  return `ops_${Buffer.from(json).toString('base64')}`;
}

/** Each alternative of each gated rule, written out from the rule's regexes, with the rule that must report it. */
const RULE_EXAMPLES: readonly [rule: string, text: string][] = [
  ...['A3TX', 'AKIA', 'AGPA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'ASIA'].map((prefix): [string, string] => ['aws', `id ${prefix}${run(20 - prefix.length, upperNum, 3)} end`]),
  ['aws', `aws_secret_access_key = ${run(40, b64, 7)}`],
  ['aws', `"SecretAccessKey": "${run(40, b64, 11)}",`],
  ['aws', `SECRET_ACCESS_KEY=>'${run(40, alnum, 13)}' `],
  ['aws', 'aws_account_id = 1234-5678-9012'],
  ['aws', '"AccountId": "123456789012"'],
  ['aws', 'ACCOUNT=123456789012 '],
  ['privatekey', pem(' RSA ', '\n')],
  ['privatekey', pem(' ', '\n')],
  ['privatekey', pem(' EC ', '\\n')],
  ['privatekey', pem(' OPENSSH ', '\n')],
  ['privatekey', pem('', '\n')],
  ['npm', `//registry.npmjs.org/:_authToken=npm_${run(36, alnum, 9)}`],
  ['basicauth', 'git clone https://alice:hunter2x@git.example.com/x.git'],
  ['basicauth', 'ftp://bob:s3cr3tpw@files.example.org/a'],
  ['basicauth', 'FTPS://bob:s3cr3tpw@files.example.org/a'.toLowerCase()],
  ...['xoxb', 'xoxp', 'xapp', 'xoxa', 'xoxo', 'xoxr'].map((prefix): [string, string] => ['slack', `SLACK=${prefix}-1-123456789012-${run(24)} `]),
  ['slack', `curl https://hooks.slack.com/services/T${run(8, upperNum)}/B${run(8, upperNum, 5)}/${run(24)}`],
  ['slack', `curl HTTPS://HOOKS.SLACK.COM/SERVICES/T${run(8, upperNum)}/B${run(8, upperNum, 5)}/${run(24)}`],
  ['sendgrid', `sg key SG.${run(22, b64url, 3)}.${run(43, b64url, 5)} `],
  ...['shppa', 'shpca', 'shpat', 'shpss'].map((prefix): [string, string] => ['shopify', `key ${prefix}_${run(32)} `]),
  ...['ghp', 'gho', 'ghu', 'ghs', 'ghr'].map((prefix): [string, string] => ['github', `token ${prefix}_${run(36, alnum, 5)} `]),
  ['github', `GH_PAT=github_pat_${run(82, alnum, 3)}`],
  ['openai', `OPENAI_API_KEY=sk-proj-${run(74, b64url, 3)}T3BlbkFJ${run(74, b64url, 5)} `],
  ['openai', `OPENAI_API_KEY=sk-svcacct-${run(58, b64url, 3)}T3BlbkFJ${run(58, b64url, 5)} `],
  ['openai', `openai.api_key = "sk-${run(20)}T3BlbkFJ${run(20, alnum, 5)}"`],
  ['anthropic', `ANTHROPIC_API_KEY=sk-ant-api03-${run(93, b64url, 3)}AA`],
  ['anthropic', `key sk-ant-api04-${run(110, b64url, 5)}AA `],
  ['linear', `LINEAR=lin_api_${run(40)}`],
  ['1password', `OP_SERVICE_ACCOUNT_TOKEN=${opsToken()}`],
  ['database-connection-string', 'mongodb://root:hunter2pw@db.internal:27017/app'],
  ['database-connection-string', 'MONGODB+SRV://root:hunter2pw@cluster0.example.net/test'],
  ['database-connection-string', 'jdbc:mysql://app:hunter2pw@db.internal:3306/app'],
  ['database-connection-string', 'mysqlx://app:hunter2pw@db.internal/app'],
  ['database-connection-string', 'DATABASE_URL=postgres://app:hunter2pw@db.internal:5432/app'],
  ['database-connection-string', 'PostgreSQL://app:hunter2pw@db.internal:5432/app'],
];

describe('the preset pre-filter (issue 20: secretlint only where a secret can be)', () => {
  it('was derived from the preset version installed (another version: read its rules again and update the table)', () => {
    const manifest = createRequire(import.meta.url).resolve('@secretlint/secretlint-rule-preset-recommend/package.json');
    expect((JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version).toBe('11.7.1');
  });

  it('runs no rule on ordinary conversation: the bench text and the fixture transcripts', () => {
    const ordinary = [BENCH_PAD, ...fixtureLines];
    expect(ordinary.length).toBeGreaterThan(10);
    for (const text of ordinary) expect(presetRulesFor(`\n${text}`).map((rule) => rule.id), text.slice(0, 200)).toEqual([]);
  });

  it("finds each rule's own positive examples, as secretlint with every rule does", async () => {
    for (const [rule, text] of RULE_EXAMPLES) {
      const window = `\n${text}\n`;
      const plain = await lintWindow(window, PRESET_RULES);
      expect(plain.map((m) => m.ruleId), text).toContain(`@secretlint/secretlint-rule-${rule}`);
      await expectSameFindings(window);
    }
  });

  it('gives the same findings over every secret and benign text of the corpora and every fixture line', async () => {
    const texts = [...SECRET_CORPUS.map((c) => c.text), ...BENIGN_CORPUS.map((c) => c.text), ...fixtureLines, BENCH_PAD];
    for (const text of texts) await expectSameFindings(`\n${text}`);
    await expectSameFindings(`\n${texts.join('\n\u0000\n')}`);
  });

  it('gives the same findings over generated windows: token shapes in noise, cut anywhere, case changed, unicode', async () => {
    const shapes = [...RULE_EXAMPLES.map(([, text]) => text), ...SECRET_CORPUS.map((c) => c.text), BENCH_PAD];
    // Letters whose case folding leaves ASCII (ſ, K, ı, İ), astral characters and line ends: the pre-filter's /i must fold as the rules' do.
    const unicode = fc.constantFrom('ſ', 'K', 'ı', 'İ', 'é', '😀', '\u2028', '\r\n', '\u0000', 'ｓｋ-', '\ud800', '\t');
    const piece = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...shapes) },
      { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
      { weight: 1, arbitrary: unicode },
    );
    const flipCase = (text: string, seed: number) =>
      Array.from(text, (ch, i) => (((seed >> i % 30) & 1) === 1 ? (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()) : ch)).join('');
    const window = fc
      .record({ pieces: fc.array(piece, { minLength: 1, maxLength: 8 }), cutFrom: fc.nat(), cutTo: fc.nat(), flip: fc.option(fc.integer(), { nil: undefined }) })
      .map(({ pieces, cutFrom, cutTo, flip }) => {
        const joined = pieces.join(' ');
        const from = cutFrom % (joined.length + 1);
        const cut = joined.slice(from, from + (cutTo % (joined.length - from + 1)));
        return `\n${flip === undefined ? cut : flipCase(cut, flip)}`;
      });
    await fc.assert(fc.asyncProperty(window, expectSameFindings), { numRuns: 3000 });
  });
});
