import { build } from 'esbuild';
const r = await build({ entryPoints: [process.argv[2]], bundle: true, platform: 'node', format: 'cjs', target: 'node20', minify: true, write: false, metafile: true,
 external: ['bufferutil', 'utf-8-validate', 'electron', '@napi-rs/keyring'], define: { 'import.meta.url': '__batonModuleUrl' },
 alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/tree-sitter.cjs' }, logLevel: 'error' });
const out = Object.values(r.metafile.outputs)[0];
let loc = 0, jsonSchema = 0; for (const [f, v] of Object.entries(out.inputs)) { if (f.includes('zod/v4/locales/') && !f.endsWith('/en.js')) loc += v.bytesInOutput; if (/json-schema|to-json|from-json/.test(f)) jsonSchema += v.bytesInOutput; }
console.log('total', out.bytes, 'locales(not en)', loc, 'json-schema', jsonSchema);
