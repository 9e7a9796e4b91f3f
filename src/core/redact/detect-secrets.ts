import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig } from '@secretlint/types';
import { batonExtraRule } from './extra-rules.js';

/** One secret in a text: [start, end) in UTF-16 units, and what kind it is. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

const FILTER_COMMENTS_ID = '@secretlint/secretlint-rule-filter-comments';
const AWS_ID = '@secretlint/secretlint-rule-aws';

/**
 * The recommended preset's own rule list, registered rule by rule, because secretlint 11.7 does
 * not honour `disabled` for a rule inside a preset and one of them must go:
 * `secretlint-disable` comments are for source repositories. In a conversation anyone could type
 * one and keep the next message's secrets on disk, so the comment filter is left out.
 * Access key ids are secrets to us (they name the account and pair with the secret key): the AWS
 * rule's id scan, off by default, is on.
 */
const CONFIG: SecretLintCoreConfig = {
  rules: [
    ...presetRules
      .filter((rule) => rule.meta.id !== FILTER_COMMENTS_ID)
      .map((rule) => ({ id: rule.meta.id, rule, ...(rule.meta.id === AWS_ID ? { options: { enableIDScanRule: true } } : {}) })),
    { id: 'baton/extra-secrets', rule: batonExtraRule },
  ],
};

/**
 * secretlint's profiler marks every rule of every scan in the global performance timeline, and
 * an observer keeps each entry in arrays it never empties (searching them linearly on every new
 * mark). In a long-lived host (the desktop, `baton serve`) that is memory and time growing
 * without bound, about 40 entries per scan. Baton reads no profile: marking is switched off on the
 * shared profiler instance @secretlint/core imports. (Clearing the marks after a scan instead
 * makes the profiler's deferred `measure` calls reject.)
 */
secretLintProfiler.mark = () => undefined;

/** `@secretlint/secretlint-rule-aws` → `aws`: the marker names the detector. */
function kindOf(ruleId: string, messageId: string): string {
  if (ruleId === 'baton/extra-secrets') return messageId;
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/**
 * Every secret secretlint (recommended preset + Baton's extra rules) finds in `text`. Some preset
 * rules report a range that starts at the key name rather than at the secret (the AWS secret key
 * rule, 11.7): the secret value a rule puts in its message data is covered as well.
 */
export async function detectSecrets(text: string): Promise<SecretSpan[]> {
  const result = await lintSource({
    source: { content: text, filePath: 'baton-message.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  const spans: SecretSpan[] = [];
  for (const message of result.messages) {
    const kind = kindOf(message.ruleId, message.messageId);
    const [start, end] = message.range;
    spans.push({ start, end, kind });
    for (const value of Object.values((message.data ?? {}) as Record<string, unknown>)) {
      if (typeof value !== 'string' || value.length < 8) continue;
      const at = text.indexOf(value, start);
      if (at >= 0 && at <= end) spans.push({ start: at, end: at + value.length, kind });
    }
  }
  return spans;
}
