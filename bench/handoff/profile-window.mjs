// A CPU profile's samples after SKIP_MS (the host's start): non-idle ms per handoff, the part in
// file watching (chokidar, readdirp, node:fs watch callbacks, file-watcher.ts), then self and
// inclusive time by function. Used by host-profile.sh.
//
//   node bench/handoff/profile-window.mjs FILE.cpuprofile SKIP_MS HANDOFFS [TOP]
import { readFileSync } from 'node:fs';

const [file, skipMs = '0', handoffs = '1', top = '45'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (n) => `${n.callFrame.functionName} ${n.callFrame.url.replace(/.*\/(src|node_modules)\//, '$1/')}:${n.callFrame.lineNumber}`;
const WATCHING = /chokidar|readdirp|FSWatcher\._handle\.onchange|file-watcher/;
const self = new Map();
const inclusive = new Map();
let t = 0;
let total = 0;
let watching = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (t / 1000 < Number(skipMs)) return;
  const node = byId.get(id);
  if (node.callFrame.functionName === '(idle)') return;
  const d = profile.timeDeltas[i];
  total += d;
  self.set(key(node), (self.get(key(node)) ?? 0) + d);
  const seen = new Set();
  let watched = false;
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur));
    if (WATCHING.test(k)) watched = true;
    if (!seen.has(k)) (seen.add(k), inclusive.set(k, (inclusive.get(k) ?? 0) + d));
  }
  if (watched) watching += d;
});
const per = (us) => (us / 1000 / Number(handoffs)).toFixed(1);
console.log(`non-idle ${(total / 1000).toFixed(1)} ms, ${per(total)} ms per handoff, of which file watching ${per(watching)}`);
const show = (map, label) => {
  console.log(`-- ${label} (ms over the window)`);
  [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(top)).forEach(([k, v]) => console.log((v / 1000).toFixed(1).padStart(8), k));
};
show(self, 'self');
show(inclusive, 'inclusive');
