/**
 * A unified diff of two small texts, for `baton install --dry-run`. Settings files are short, so
 * a plain LCS table is enough; past MAX_DIFF_LINES lines the diff says so instead of growing the table.
 */
export const MAX_DIFF_LINES = 4_000;
const CONTEXT = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function ops(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      out.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) out.push({ kind: '-', line: a[i++]! });
    else out.push({ kind: '+', line: b[j++]! });
  }
  return out;
}

/** `--- path` / `+++ path` and @@ hunks; '' when the texts are equal. null means "no file". */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const header = [`--- ${before === null ? '/dev/null' : path}`, `+++ ${after === null ? '/dev/null' : path}`];
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) return [...header, `(over ${MAX_DIFF_LINES} lines: diff not shown)`].join('\n') + '\n';
  const all = ops(a, b);
  const lines = [...header];
  let k = 0;
  while (k < all.length) {
    if (all[k]!.kind === ' ') {
      k++;
      continue;
    }
    let start = Math.max(0, k - CONTEXT);
    let end = k;
    // Extend the hunk while the next change is within 2*CONTEXT unchanged lines.
    while (end < all.length) {
      let next = end;
      while (next < all.length && all[next]!.kind !== ' ') next++;
      let gap = next;
      while (gap < all.length && all[gap]!.kind === ' ') gap++;
      if (gap < all.length && gap - next <= 2 * CONTEXT) end = gap;
      else {
        end = Math.min(all.length, next + CONTEXT);
        break;
      }
    }
    const hunk = all.slice(start, end);
    const aStart = all.slice(0, start).filter((o) => o.kind !== '+').length;
    const bStart = all.slice(0, start).filter((o) => o.kind !== '-').length;
    const aLen = hunk.filter((o) => o.kind !== '+').length;
    const bLen = hunk.filter((o) => o.kind !== '-').length;
    lines.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) lines.push(`${o.kind}${o.line}`);
    k = end;
    start = end;
  }
  return `${lines.join('\n')}\n`;
}
