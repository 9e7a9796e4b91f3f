import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from '@secretlint/types';

export type PresetRule = SecretLintCoreConfig['rules'][number];

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
export const PRESET_RULES: readonly PresetRule[] = presetRules
  .filter((rule) => rule.meta.id !== FILTER_COMMENTS_ID)
  .map((rule) => ({ id: rule.meta.id, rule, ...(rule.meta.id === AWS_ID ? { options: { enableIDScanRule: true } } : {}) }));

/**
 * secretlint's profiler marks every rule of every scan in the global performance timeline, and
 * an observer keeps each entry in arrays it never empties (searching them linearly on every new
 * mark). In a long-lived host (the desktop, `baton serve`) that is memory and time growing
 * without bound, about 40 entries per scan. Baton reads no profile: marking is switched off on the
 * shared profiler instance @secretlint/core imports. (Clearing the marks after a scan instead
 * makes the profiler's deferred `measure` calls reject.)
 */
secretLintProfiler.mark = () => undefined;

/**
 * Every finding of `rules` in one window of text. The file name and the missing extension are part
 * of what the rules see (the npm rule reads package files and .npmrc by name, the GCP rule only
 * `.json` and `.p12`): ./preset-prefilter.ts relies on both.
 */
export async function lintWindow(window: string, rules: readonly PresetRule[]): Promise<SecretLintCoreResultMessage[]> {
  const result = await lintSource({
    source: { content: window, filePath: 'baton-message.txt', contentType: 'text' },
    options: { config: { rules: [...rules] }, noPhysicFilePath: true },
  });
  return result.messages;
}
