/**
 * Codex 0.169.0 reports a shell call as the argv it ran, joined and shell-quoted:
 * `/bin/bash -c ls`, `/bin/bash -c 'echo "it is" && touch x.txt'`, `bash -lc '…'`. The tool card
 * shows the command the model asked for, as Claude Code's Bash card does, so the wrapper is
 * taken off when it is exactly one shell, one -c/-lc flag and one word (bare or single-quoted,
 * with `'\''` for a quote inside). Anything else is shown as Codex printed it.
 */
const WRAPPER = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z|da)?sh -l?c ([\s\S]+)$/;
const BARE_WORD = /^[^\s'"\\$`;&|<>()]+$/;

export function unwrapShellCommand(printed: string): string {
  const match = WRAPPER.exec(printed);
  if (!match) return printed;
  const rest = match[1]!;
  if (BARE_WORD.test(rest)) return rest;
  // One single-quoted word, possibly several '…' parts joined by \' (how a quote is written inside).
  const parts = rest.split("'\\''");
  if (parts.length === 0 || !parts[0]!.startsWith("'") || !parts.at(-1)!.endsWith("'")) return printed;
  const inner = [parts[0]!.slice(1), ...parts.slice(1)];
  inner[inner.length - 1] = inner.at(-1)!.slice(0, -1);
  if (parts.length === 1 && rest.length < 2) return printed;
  // A bare ' left inside means the word ended early (two words): keep Codex's text.
  if (inner.some((p) => p.includes("'"))) return printed;
  return inner.join("'");
}
