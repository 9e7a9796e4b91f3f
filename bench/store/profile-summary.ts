// Top self-time functions of a V8 .cpuprofile (node --cpu-prof), as a Markdown table.
//   npx tsx bench/store/profile-summary.ts FILE.cpuprofile [top]
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// source-map-js is in node_modules through vite/postcss; only this bench script reads it.
import { SourceMapConsumer } from 'source-map-js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const maps = new Map<string, SourceMapConsumer | null>();
/** The bundle is minified: name a frame by its source file and line when a .map sits beside it. */
function original(url: string, line: number, column: number): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const mapFile = `${fileURLToPath(url)}.map`;
  if (!maps.has(mapFile)) maps.set(mapFile, existsSync(mapFile) ? new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
  const pos = maps.get(mapFile)?.originalPositionFor({ line: line + 1, column });
  if (!pos?.source) return undefined;
  return `${pos.name ?? ''} ${pos.source.replace(/^(\.\.\/)+/, '')}:${pos.line}`;
}
const selfUs = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  const node = byId.get(id);
  if (!node) return;
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const mapped = original(url, lineNumber, columnNumber);
  const where = url ? `${url.split('/').slice(-1)[0]}:${lineNumber + 1}` : '';
  const key = mapped ?? `${functionName || '(anonymous)'} ${where}`.trim();
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  total += delta;
});
const top = [...selfUs.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 15));
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
console.log('| function | self ms | % |');
console.log('|---|---:|---:|');
for (const [name, us] of top) console.log(`| \`${name}\` | ${(us / 1000).toFixed(0)} | ${((100 * us) / total).toFixed(1)} |`);
