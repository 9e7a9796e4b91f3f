import { TITLE_MAX_CHARS } from './limits.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** One line of at most TITLE_MAX_CHARS: whitespace collapsed, cut with an ellipsis. */
export function toTitle(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TITLE_MAX_CHARS ? flat : `${flat.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
}

/** Cuts `text` to `max` characters with a marker saying how much was left out. */
export function trimText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${text.length - max} more characters not imported]`;
}

/** toISOString()'s form for a date every month has (days 01-28), so no calendar check is needed. */
const CANONICAL_ISO = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** ISO form of a timestamp string, or undefined when it does not parse. */
export function isoOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Logs stamp every line in toISOString()'s own form: returned as it is, that skips a Date.parse
  // and a Date per line (a tenth of a cold scan). Days 29-31 take the full path, which knows the months.
  if (value.length === 24 && CANONICAL_ISO.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The later of two ISO timestamps (either may be missing). */
export function laterIso(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return b > a ? b : a;
}
