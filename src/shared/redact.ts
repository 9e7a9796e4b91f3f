/**
 * Secrets that must never reach the store (ARCHITECTURE.md §8): messages are redacted before
 * they are written. Each pattern names what it found, so a reader knows something was removed.
 * Patterns are deliberately specific (known prefixes and shapes) to avoid eating ordinary text.
 */
const SECRET_PATTERNS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'private-key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  { name: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/g },
  { name: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'openai-key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g },
  { name: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { name: 'bearer-token', pattern: /\b(Bearer)\s+[A-Za-z0-9._~+/-]{20,}=*/g },
  { name: 'url-credentials', pattern: /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@]+:[^\s/@]+@/gi },
];

export interface Redaction {
  text: string;
  /** How many secrets of each kind were removed. */
  found: Record<string, number>;
}

export function redactSecrets(text: string): Redaction {
  const found: Record<string, number> = {};
  let result = text;
  for (const { name, pattern } of SECRET_PATTERNS) {
    result = result.replace(pattern, (match, ...groups) => {
      found[name] = (found[name] ?? 0) + 1;
      const prefix = name === 'bearer-token' || name === 'url-credentials' ? String(groups[0]) + (name === 'bearer-token' ? ' ' : '') : '';
      return `${prefix}[REDACTED:${name}]`;
    });
  }
  return { text: result, found };
}
