/**
 * Summarizes a V8 CPU profile (`node --cpu-prof`): self time by function and by file, the
 * top rows only. Used for issue 15's "where the time goes" notes in bench/README.md.
 *
 *   npx tsx bench/importers/profile-summary.ts FILE.cpuprofile [--top=15]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--top=N]');
const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 15);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url.replace(/^.*\/(node_modules|dist|src)\//, '$1/') || '(native)';
  const fn = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byFile.set(where, (byFile.get(where) ?? 0) + us);
}
const total = (profile.endTime - profile.startTime) / 1000;
const rows = (m: Map<string, number>) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, us]) => ({ 'self ms': (us / 1000).toFixed(1), '%': ((us / 1000 / total) * 100).toFixed(1), where: k }));
console.log(`profile: ${total.toFixed(0)} ms`);
console.table(rows(byFunction));
console.table(rows(byFile));
