import { createHash } from 'node:crypto';
import { detectSecrets, type SecretSpan } from './detect-secrets.js';

/**
 * Secrets never reach the disk (ARCHITECTURE.md §8): everything Baton writes from a conversation
 * (messages, titles, tool input, unknown fields, what the importers cache) goes through
 * `redactValue` first. Every string at any depth is checked, object keys included.
 */

/** Between two strings in one secretlint pass: a NUL stops every pattern, the newlines end a line for `^`/`$` rules. */
const SEPARATOR = '\n\u0000\n';
/** Shorter strings cannot hold any shape the detectors know (the shortest, `TOKEN=abcd`, is 10). */
const MIN_CANDIDATE_CHARS = 8;

export type RedactionCounts = Record<string, number>;

export interface Redacted<T> {
  value: T;
  /** How many secrets of each kind were replaced. */
  found: RedactionCounts;
}

export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Most characters joined for one detector pass. Joining every string of a 300 MB session made one
 * 300 MB string (600 MB when any character is outside Latin-1) beside the session itself (issue
 * 20); batches of this size cost the same passes, as the detector scans in 8 KiB windows anyway.
 */
export const REDACT_BATCH_CHARS = 4 * 1024 * 1024;

/**
 * Redacts many strings in few detector passes (secretlint's per-call overhead dominates short
 * strings): they are joined in batches of about `batchChars`, each scanned once, and each span is
 * cut back to the strings it covers. A batch ends between two strings, where the separator already
 * stops every pattern, so the batching changes no finding.
 */
export async function redactStrings(texts: readonly string[], batchChars = REDACT_BATCH_CHARS, perText?: RedactionCounts[]): Promise<{ texts: string[]; found: RedactionCounts }> {
  const found: RedactionCounts = {};
  const out = [...texts];
  for (let from = 0; from < texts.length; ) {
    let to = from;
    let chars = 0;
    do chars += texts[to++]!.length + SEPARATOR.length;
    while (to < texts.length && chars + texts[to]!.length <= batchChars);
    await redactBatch(texts, from, to, out, found, perText);
    from = to;
  }
  return { texts: out, found };
}

/** One detector pass over texts[from, to) joined: replaced strings go into `out` at the same index. */
async function redactBatch(texts: readonly string[], from: number, to: number, out: string[], found: RedactionCounts, perText?: RedactionCounts[]): Promise<void> {
  const batch = texts.slice(from, to);
  const starts: number[] = [];
  let offset = 0;
  for (const text of batch) {
    starts.push(offset);
    offset += text.length + SEPARATOR.length;
  }
  const spans = await detectSecrets(batch.join(SEPARATOR));
  const spansOf = new Map<number, SecretSpan[]>();
  for (const span of spans) {
    for (let i = pieceAt(starts, span.start); i < batch.length && starts[i]! < span.end; i++) {
      const start = Math.max(span.start - starts[i]!, 0);
      const end = Math.min(span.end - starts[i]!, batch[i]!.length);
      if (end <= start) continue;
      let list = spansOf.get(i);
      if (!list) spansOf.set(i, (list = []));
      list.push({ start, end, kind: span.kind });
    }
  }
  for (const [i, list] of spansOf) {
    // `perText`, when asked for, gets each string's own counts (StreamRedactor counts a string once per session).
    const counts: RedactionCounts = perText ? (perText[from + i] = {}) : found;
    out[from + i] = replaceSpans(batch[i]!, list, counts);
    if (perText) for (const [kind, n] of Object.entries(counts)) found[kind] = (found[kind] ?? 0) + n;
  }
}

/** The index of the string that contains position `at` of the joined text (or precedes it). */
function pieceAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Overlapping spans (two rules on one key) merge into one marker, named by the one that starts first. */
function replaceSpans(text: string, spans: SecretSpan[], found: RedactionCounts): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  let current: SecretSpan | null = null;
  const flush = () => {
    if (!current) return;
    out += text.slice(at, current.start) + redactionMarker(current.kind);
    found[current.kind] = (found[current.kind] ?? 0) + 1;
    at = current.end;
    current = null;
  };
  for (const span of spans) {
    if (current && span.start < current.end) current.end = Math.max(current.end, span.end);
    else {
      flush();
      current = { ...span, start: Math.max(span.start, at) };
    }
  }
  flush();
  return out + text.slice(at);
}

/**
 * A copy of `value` (JSON data) with every secret in every string replaced by a marker, at any
 * depth: the walk is iterative, so 5,000 levels of nesting cost no stack. When nothing is found
 * the same value is returned, uncopied.
 */
export async function redactValue<T>(value: T): Promise<Redacted<T>> {
  const keyed = new Set<string>();
  collectKeyedSecrets(value, keyed);
  const redactor = new StreamRedactor(keyed);
  return { value: await redactor.redact(value), found: redactor.found() };
}

/**
 * Redacts a session a part at a time (issue 20: a 300 MB session is never one value) with the same
 * result as `redactValue` on the whole: a literal under a secret-named key anywhere in the session
 * is replaced wherever it occurs, so those are gathered by a first pass (`collectKeyedSecrets`);
 * and each distinct string counts once in `found`, so the strings already counted are remembered
 * (by hash: only strings that held a secret, a handful per session).
 */
export class StreamRedactor {
  private readonly counted = new Set<string>();
  private readonly counts: RedactionCounts = {};

  constructor(private readonly keyed: ReadonlySet<string>) {}

  /** A copy of `value` with every secret replaced (the value itself when there is none). */
  async redact<T>(value: T): Promise<T> {
    const { strings, keyed } = collectStrings(value, this.keyed);
    const unique = [...strings];
    const local: RedactionCounts = {};
    const perText: RedactionCounts[] = [];
    const { texts } = await redactStrings(unique, REDACT_BATCH_CHARS, perText);
    const replaced = new Map<string, string>();
    for (let i = 0; i < unique.length; i++) {
      if (texts[i] === unique[i]) continue;
      replaced.set(unique[i]!, texts[i]!);
      // A string's findings count once per session, however many times (or parts) it occurs in.
      if (this.firstTime(unique[i]!)) for (const [kind, n] of Object.entries(perText[i] ?? {})) local[kind] = (local[kind] ?? 0) + n;
    }
    for (const text of keyed) {
      if (replaced.has(text)) continue;
      replaced.set(text, redactionMarker(KEYED_KIND));
      if (this.firstTime(text)) local[KEYED_KIND] = (local[KEYED_KIND] ?? 0) + 1;
    }
    for (const [kind, n] of Object.entries(local)) this.counts[kind] = (this.counts[kind] ?? 0) + n;
    return replaced.size === 0 ? value : copyReplacing(value, replaced);
  }

  /** How many secrets of each kind were replaced, by kind name: the same order however the session was cut. */
  found(): RedactionCounts {
    return Object.fromEntries(Object.entries(this.counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private firstTime(text: string): boolean {
    const key = text.length > 64 ? createHash('sha256').update(text).digest('base64') : text;
    if (this.counted.has(key)) return false;
    this.counted.add(key);
    return true;
  }
}

/** Adds to `into` every literal that sits under a secret-named key anywhere in `value`. */
export function collectKeyedSecrets(value: unknown, into: Set<string>): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) if (item !== null && typeof item === 'object') stack.push(item);
      continue;
    }
    for (const key in node) {
      const item = (node as Record<string, unknown>)[key];
      if (typeof item === 'string') {
        if (item.length >= MIN_KEYED_CHARS && SECRET_KEY_NAME.test(key) && !NOT_A_SECRET.test(item)) into.add(item);
      } else if (item !== null && typeof item === 'object') stack.push(item);
    }
  }
}

/**
 * Object keys whose string value is a secret: the name ends in one of these words (`apiKey`,
 * `DB_PASSWORD`, `id_token`, `client_secret`), so `max_tokens` or `secretName` do not count.
 */
const SECRET_KEY_NAME = /(?:password|passwd|passphrase|secret|token|api_?key|apikey|private_?key|access_?key|credentials?)$/i;
/** Values under such a key that are settings or references, not secrets. */
const NOT_A_SECRET = /^(?:true|false|null|none|undefined|string|required|optional|\*+|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>)$/i;
const KEYED_KIND = 'keyed-secret';
/** Shorter values under a secret-named key are flags or placeholders ("", "x", "yes"). */
const MIN_KEYED_CHARS = 4;

/**
 * The distinct strings of `root` the detector looks at (values and keys of at least
 * MIN_CANDIDATE_CHARS), and those of any length that are in `keyedSecrets` (replaced wherever they occur).
 */
function collectStrings(root: unknown, keyedSecrets: ReadonlySet<string>): { strings: Set<string>; keyed: Set<string> } {
  const strings = new Set<string>();
  const keyed = new Set<string>();
  const seen = new WeakSet<object>();
  const stack: unknown[] = [root];
  const note = (text: string) => {
    if (text.length >= MIN_CANDIDATE_CHARS) strings.add(text);
    if (keyedSecrets.size > 0 && keyedSecrets.has(text)) keyed.add(text);
  };
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') note(value);
    else if (value !== null && typeof value === 'object') {
      if (seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
      } else {
        for (const [key, item] of Object.entries(value)) {
          note(key);
          stack.push(item);
        }
      }
    }
  }
  return { strings, keyed };
}

function copyReplacing<T>(root: T, replaced: ReadonlyMap<string, string>): T {
  const copies = new Map<object, unknown>();
  const work: [object, Record<string, unknown> | unknown[]][] = [];
  const swap = (text: string) => replaced.get(text) ?? text;
  const copyOf = (value: unknown): unknown => {
    if (typeof value === 'string') return swap(value);
    if (value === null || typeof value !== 'object') return value;
    const known = copies.get(value);
    if (known !== undefined) return known;
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? new Array<unknown>(value.length) : {};
    copies.set(value, copy);
    work.push([value, copy]);
    return copy;
  };
  const result = copyOf(root) as T;
  while (work.length > 0) {
    const [source, copy] = work.pop()!;
    if (Array.isArray(source)) {
      const target = copy as unknown[];
      for (let i = 0; i < source.length; i++) target[i] = copyOf(source[i]);
    } else {
      for (const [key, item] of Object.entries(source)) {
        // defineProperty: a "__proto__" key from JSON.parse stays a key instead of setting the prototype.
        Object.defineProperty(copy, swap(key), { value: copyOf(item), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return result;
}
