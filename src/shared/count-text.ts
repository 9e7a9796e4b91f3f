/**
 * A whole number with thousands separators, as `n.toLocaleString('en-US')` writes it ("20,000"),
 * without Intl: the first toLocaleString of a process loads ICU's number formatting (5–15 ms
 * here), which is most of what the resume picker's first screen costs after its rows.
 */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${digits.slice(Math.max(0, end - 3), end)}${out ? `,${out}` : ''}`;
  return n < 0 ? `-${out}` : out;
}
