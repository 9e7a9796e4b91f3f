import { PRESET_RULES, type PresetRule } from './secretlint-preset.js';

/**
 * What a window must contain for each rule of secretlint's recommended preset (11.7.1, as
 * configured in ./secretlint-preset.ts) to be able to report anything, read from each rule's
 * source (node_modules/@secretlint/secretlint-rule-preset-recommend/module/index-*.js). A window is
 * linted with only the rules whose condition holds, and not at all when none does: secretlint's
 * per-call cost (a source map of the window, 14 rule instances, 20 regex scans) is most of an
 * import's redaction, and ordinary conversation holds no secret (issue 20).
 *
 * Each condition is a regex every match of the rule's own regexes contains: the rule's regex with
 * optional parts, lookarounds, `\b` and its tail left out, under the rule's flags or wider ones (`i`
 * where the rule has it, and for AWS's secret key and account id, whose spellings are a subset of
 * `i`; never `u`-only folding: the literals are ASCII). A rule that does not run reports
 * nothing; the others report what they would have, in the same order (rules run one after the
 * other in the order registered), and secretlint's cleanup (duplicate filter, stable sort by
 * range) is a function of that list: the findings are the same message for message
 * (preset-prefilter.test.ts compares them).
 *
 * | rule | window must match | why |
 * |---|---|---|
 * | aws | `(A3T[A-Z0-9]\|AKIA\|…\|ASIA)[A-Z0-9]{16}`, or `secret_?access_?key["']?\s*(:\|=>\|=)` (i), or `account_?(id)?["']?\s*(:\|=>\|=)\s*["']?[0-9]{4}` (i) | its three scans: the key id (`\b` dropped), the secret key (the rule spells SECRET/secret/Secret…, a subset of `i`; its optional `AWS_` and quote prefix dropped), the account id (same) |
 * | gcp | never | it reads only sources whose extension is `.p12` or `.json`; a window has no extension (`ext` is "") |
 * | privatekey | `-----BEGIN ?((RSA\|DSA\|EC\|OPENSSH\|PGP) )?PRIVATE KEY` | the head of its one regex (`m` changes nothing: no `^`/`$`) |
 * | npm | `npm_[A-Za-z0-9_]{36}` | its access-token regex without the lookarounds; its `x-oauth-basic` scan runs only for package.json files and its `_authToken` scan only for .npmrc, and a window's file name is baton-message.txt |
 * | basicauth | `://[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@` | the middle of its URL regex, protocol and host left out |
 * | slack | `(xoxb\|xoxp\|xapp\|xoxa\|xoxo\|xoxr)-`, or `https://hooks\.slack\.com/services/` (i) | the heads of its token regex (`\b` dropped) and of its webhook regex |
 * | sendgrid | `SG\.` | the head of its key regex (lookbehind dropped) |
 * | shopify | `(shppa\|shpca\|shpat\|shpss)_` | the head of its key regex |
 * | github | `(ghp\|gho\|ghu\|ghs\|ghr\|github_pat)_` | the heads of its classic and fine-grained regexes |
 * | openai | `T3BlbkFJ` | both alternatives of its regex contain the marker |
 * | anthropic | `sk-ant-api0\d-` | the head of its key regex |
 * | linear | `lin_api_` | the head of its key regex |
 * | 1password | `ops_ey` | the head of its token regex |
 * | database-connection-string | `mongodb(\+srv)?://`, `mysqlx?://` or `postgres(ql)?://` (i) | the heads of its three URI regexes (`jdbc:` is optional) |
 *
 * A rule the table does not name (a preset upgrade) runs on every window.
 */
const CAN_REPORT: Readonly<Record<string, readonly RegExp[] | 'never'>> = {
  '@secretlint/secretlint-rule-aws': [
    /(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}/,
    /secret_?access_?key["']?\s*(?::|=>|=)/i,
    /account_?(?:id)?["']?\s*(?::|=>|=)\s*["']?[0-9]{4}/i,
  ],
  '@secretlint/secretlint-rule-gcp': 'never',
  '@secretlint/secretlint-rule-privatekey': [/-----BEGIN[ ]?(?:(?:RSA|DSA|EC|OPENSSH|PGP) )?PRIVATE KEY/],
  '@secretlint/secretlint-rule-npm': [/npm_[A-Za-z0-9_]{36}/],
  '@secretlint/secretlint-rule-basicauth': [/:\/\/[-a-zA-Z0-9_]{1,256}:[-a-zA-Z0-9_]{1,256}@/],
  '@secretlint/secretlint-rule-slack': [/(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr)-/, /https:\/\/hooks\.slack\.com\/services\//i],
  '@secretlint/secretlint-rule-sendgrid': [/SG\./],
  '@secretlint/secretlint-rule-shopify': [/(?:shppa|shpca|shpat|shpss)_/],
  '@secretlint/secretlint-rule-github': [/(?:ghp|gho|ghu|ghs|ghr|github_pat)_/],
  '@secretlint/secretlint-rule-openai': [/T3BlbkFJ/],
  '@secretlint/secretlint-rule-anthropic': [/sk-ant-api0\d-/],
  '@secretlint/secretlint-rule-linear': [/lin_api_/],
  '@secretlint/secretlint-rule-1password': [/ops_ey/],
  '@secretlint/secretlint-rule-database-connection-string': [/mongodb(?:\+srv)?:\/\/|mysqlx?:\/\/|postgres(?:ql)?:\/\//i],
};

type GatedRule = { rule: PresetRule; conditions: readonly RegExp[] | 'never' | undefined };
let gated: readonly GatedRule[] | undefined;

/**
 * The preset's rules with the condition each must meet (undefined: always runs), made at the first
 * window: the list and resume bundles load secretlint at the first read of PRESET_RULES
 * (scripts/build-cli.js secretlintOnFirstUse), and a scan that redacts nothing never needs it.
 */
function gatedRules(): readonly GatedRule[] {
  return (gated ??= PRESET_RULES.map((rule) => ({ rule, conditions: CAN_REPORT[rule.id] })));
}

/** One rule list per set of rules that can report (a character a rule): at most 2^14 lists, a handful in practice. */
const rulesBySet = new Map<string, readonly PresetRule[]>();

/** The preset rules that can report anything in `window`, in the preset's order (empty: none can). */
export function presetRulesFor(window: string): readonly PresetRule[] {
  // A string key, not a bit mask: it holds any number of rules (`1 << 32` would wrap to 1).
  const rulesInOrder = gatedRules();
  let set = '';
  for (const { conditions } of rulesInOrder) {
    const can = conditions !== 'never' && (conditions === undefined || conditions.some((condition) => condition.test(window)));
    set += can ? '1' : '0';
  }
  let rules = rulesBySet.get(set);
  if (!rules) rulesBySet.set(set, (rules = rulesInOrder.filter((_, i) => set[i] === '1').map(({ rule }) => rule)));
  return rules;
}
