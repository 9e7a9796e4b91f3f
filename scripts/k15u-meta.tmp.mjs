import { build } from 'esbuild';
const r = await build({ entryPoints: [process.argv[2]], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, metafile: true, outfile: '/tmp/x.cjs', external: ['bufferutil','utf-8-validate','electron','@napi-rs/keyring'], define: { 'import.meta.url': '__u' }, logLevel: 'silent', alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' } });
const inputs = r.metafile.inputs;
// static import graph from entry
const entry = process.argv[2];
const seen = new Map([[entry, null]]); const q = [entry];
while (q.length) { const f = q.shift(); for (const imp of inputs[f]?.imports ?? []) { if (imp.kind !== 'import-statement' && imp.kind !== 'require-call') continue; if (!seen.has(imp.path)) { seen.set(imp.path, f); q.push(imp.path); } } }
const target = process.argv[3];
if (target) { for (const [f] of seen) if (f.includes(target)) { let c = f; const chain = []; while (c) { chain.push(c); c = seen.get(c); } console.log(chain.reverse().join('\n  <- ')); console.log(); } }
else { let bytes = 0; for (const [f] of seen) bytes += inputs[f]?.bytes ?? 0; console.log('static modules', seen.size, 'bytes', bytes, 'all', Object.keys(inputs).length); for (const [f] of seen) if (f.startsWith('node:') || !f.includes('/')) console.log(' ', f); }
if (process.argv[3] === 'sizes') { const arr=[...seen.keys()].map(f=>[inputs[f]?.bytes??0,f]).sort((a,b)=>b[0]-a[0]); for (const [b,f] of arr.slice(0,50)) console.log(b,f); }
