/**
 * What a page of memory touched for the first time costs on this machine, and what that does to
 * opening a sealed 5.8 MB listing (issue 17): the figures behind "where the encrypted time went"
 * in bench/README.md. Each case runs in its own `node` child (a fresh heap, as a CLI has), 9 runs,
 * alternated; the child reports its own time and minor page faults (process.resourceUsage()).
 *
 *   npx tsx bench/store/fresh-pages.ts [--runs=9]
 *
 *   touch fresh          fill 5.8 MB never touched before (Buffer.alloc maps it lazily)
 *   touch again          fill the same 5.8 MB a second time
 *   decipher, kept       90 pieces of 64 KB opened with AES-256-GCM, every output kept (a listing
 *                        authenticated whole before it is printed)
 *   decipher, dropped    the same, each output dropped at once (freed only when a GC runs)
 *   decipher, reused     the same, with a minor GC every 16 pieces (--expose-gc): the outputs'
 *                        memory comes back to malloc and is used again
 */
import { execFileSync } from 'node:child_process';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const runs = Number(args.get('runs') ?? 9);
const PIECES = 90;
const PIECE = 64 * 1024;

/** The child's body: one case, printing `ms faults`. */
const child = (mode: string) => `
const c = require('node:crypto');
const key = c.randomBytes(32), iv = c.randomBytes(12), sealed = c.randomBytes(${PIECE});
const gc = globalThis.gc;
const f0 = process.resourceUsage().minorPageFault;
const t0 = process.hrtime.bigint();
const mode = ${JSON.stringify(mode)};
if (mode.startsWith('touch')) {
  const b = Buffer.alloc(${PIECES * PIECE});
  if (mode === 'touch again') { b.fill(1); }
  const t1 = process.hrtime.bigint(), f1 = process.resourceUsage().minorPageFault;
  b.fill(2);
  console.log(Number(process.hrtime.bigint() - t1) / 1e6, process.resourceUsage().minorPageFault - f1);
  process.exit(0);
}
const kept = [];
for (let i = 0; i < ${PIECES}; i++) {
  const out = c.createDecipheriv('aes-256-gcm', key, iv).update(sealed);
  if (mode === 'decipher, kept') kept.push(out);
  if (gc && i % 16 === 15) gc({ type: 'minor' });
}
console.log(Number(process.hrtime.bigint() - t0) / 1e6, process.resourceUsage().minorPageFault - f0);
`;

const cases = ['touch fresh', 'touch again', 'decipher, kept', 'decipher, dropped', 'decipher, reused'];
const samples = new Map(cases.map((c) => [c, [] as Array<[number, number]>]));
for (let r = 0; r < runs; r++) {
  for (const name of cases) {
    const flags = name === 'decipher, reused' ? ['--expose-gc'] : [];
    const [ms, faults] = execFileSync(process.execPath, [...flags, '-e', child(name)], { encoding: 'utf8' }).trim().split(' ').map(Number);
    samples.get(name)!.push([ms!, faults!]);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${PIECES} × ${PIECE / 1024} KB = ${((PIECES * PIECE) / 1e6).toFixed(1)} MB; ${runs} runs each, alternated; load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.table(
  cases.map((name) => {
    const s = samples.get(name)!;
    const ms = median(s.map(([m]) => m));
    const faults = median(s.map(([, f]) => f));
    return { case: name, 'median ms': ms.toFixed(1), 'minor faults': faults, 'µs per fault': name === 'touch fresh' ? ((ms * 1000) / faults).toFixed(1) : '' };
  }),
);
