/**
 * Text from sessions (titles, paths, messages, imported logs) reaches the terminal through here,
 * so it can never drive the terminal: an imported title once retitled the window (OSC 0) and
 * cleared the screen (CSI 2J). Controls are shown, not removed, as `\xNN` / `\uNNNN`: the reader
 * sees that something odd was there, and the sequence is inert.
 *
 * Escaped: C0 controls (ESC, BEL, CR, backspace …), DEL, C1 controls (U+0080–U+009F, including
 * the one-byte CSI U+009B), bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069,
 * U+200E/F, U+061C: they reorder what follows, "Trojan Source"), and the Unicode line and
 * paragraph separators. `--json` output never comes here: JSON.stringify keeps it exact.
 */
const UNSAFE_IN_FIELD = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, but a line break (and a tab) is the output's own layout. */
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\n') return '\\n';
  if (char === '\r') return '\\r';
  if (char === '\t') return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One value inside a line (a title, a path, an id): nothing in it can break the line or drive the terminal. */
export function terminalField(value: unknown): string {
  return String(value).replace(UNSAFE_IN_FIELD, escapeChar);
}

/** Whole lines a command built: its own line breaks stay, every other control is escaped. */
export function terminalLines(text: string): string {
  return text.replace(UNSAFE_IN_LINES, escapeChar);
}

/**
 * A multi-line value (a message) under a line that introduces it: each of its lines is indented,
 * so none can pass for a line of the command's own layout; controls are escaped.
 */
export function terminalBlock(value: string, indent = '    '): string {
  return value
    .split(/\r?\n/)
    .map((line) => terminalField(line))
    .join(`\n${indent}`);
}
