/** One number format for the whole UI (issue: `100000 messages` next to `2,014 sessions`). */
const COUNT = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return COUNT.format(n);
}
