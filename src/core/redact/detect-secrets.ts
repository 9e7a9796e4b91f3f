import { EXTRA_PATTERNS } from './extra-rules.js';
import { presetRulesFor } from './preset-prefilter.js';
import { lintWindow } from './secretlint-preset.js';

/** One secret in a text: [start, end) in UTF-16 units, and what kind it is. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/** `@secretlint/secretlint-rule-aws` → `aws`: the marker names the detector. */
function kindOf(ruleId: string): string {
  return ruleId.replace(/^@secretlint\/secretlint-rule-/, '');
}

/**
 * secretlint's core does work quadratic in the findings of one call (its duplicate filter copies
 * the list for each finding): a megabyte of AWS key ids (a CloudTrail dump) made one call take
 * minutes. So the preset sees the text in windows: each owns SCAN_CHUNK_CHARS (cut after a
 * newline where one is near) and reads SCAN_OVERLAP_CHARS past it, so a token that starts in the
 * owned part is seen whole; findings are kept only from the owned part. A call costs well under a
 * millisecond, and a window where no rule can report gets none (./preset-prefilter.ts), so
 * ordinary text pays little (bench/redact). Private-key blocks, which can be
 * longer than the overlap, are also matched by Baton's own pattern over the whole text.
 */
export const SCAN_CHUNK_CHARS = 8 * 1024;
/** Longer than any token the preset knows (the longest, OpenAI project keys, are under 200 chars). */
export const SCAN_OVERLAP_CHARS = 2 * 1024;

/** Where each window's owned part starts: every SCAN_CHUNK_CHARS, moved to just after a newline when one is close. */
function windowStarts(text: string): number[] {
  const starts = [0];
  for (let at = SCAN_CHUNK_CHARS; at < text.length; ) {
    const newline = text.indexOf('\n', at);
    const start = newline >= 0 && newline - at < SCAN_CHUNK_CHARS / 4 ? newline + 1 : at;
    if (start >= text.length) break;
    starts.push(start);
    at = start + SCAN_CHUNK_CHARS;
  }
  return starts;
}

async function presetSpans(text: string): Promise<SecretSpan[]> {
  const starts = windowStarts(text);
  const spans: SecretSpan[] = [];
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    const owned = starts[i + 1] ?? text.length;
    // A leading "\n": secretlint strips a byte-order mark at the start of a source, which would
    // shift every range by one; the newline also keeps `^` rules true to real line starts.
    const window = `\n${text.slice(start, Math.min(owned + SCAN_OVERLAP_CHARS, text.length))}`;
    const rules = presetRulesFor(window);
    if (rules.length === 0) continue; // no rule can report here (./preset-prefilter.ts)
    for (const message of await lintWindow(window, rules)) {
      const from = start + message.range[0] - 1;
      if (from >= owned) continue; // the next window owns it, and sees it whole
      const kind = kindOf(message.ruleId);
      const to = start + message.range[1] - 1;
      spans.push({ start: Math.max(from, start), end: to, kind });
      // Some preset rules report a range that starts at the key name rather than at the secret
      // (the AWS secret key rule, 11.7): the value a rule names in its message data goes too.
      for (const value of Object.values((message.data ?? {}) as Record<string, unknown>)) {
        if (typeof value !== 'string' || value.length < 8) continue;
        const at = window.indexOf(value, message.range[0]);
        if (at >= 0 && at <= message.range[1]) spans.push({ start: start + at - 1, end: start + at - 1 + value.length, kind });
      }
    }
  }
  return spans;
}

/** Baton's own patterns (./extra-rules.ts), over the whole text at once: each is linear and reports only its matches. */
function extraSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const { kind, pattern, accept } of EXTRA_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const span = match.indices?.groups?.secret ?? match.indices?.[0];
      if (!span) continue;
      if (accept && !accept(text.slice(span[0], span[1]))) continue;
      spans.push({ start: span[0], end: span[1], kind });
    }
  }
  return spans;
}

/** Every secret secretlint's recommended rules and Baton's extra patterns find in `text`. */
export async function detectSecrets(text: string): Promise<SecretSpan[]> {
  return [...(await presetSpans(text)), ...extraSpans(text)];
}
