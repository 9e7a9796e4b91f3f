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

/** ISO form of a timestamp string, or undefined when it does not parse. */
export function isoOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The later of two ISO timestamps (either may be missing). */
export function laterIso(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return b > a ? b : a;
}
