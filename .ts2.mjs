import { Parser, Language } from 'web-tree-sitter';
import { readFileSync } from 'node:fs';
await Parser.init();
const lang = await Language.load(readFileSync('node_modules/tree-sitter-bash/tree-sitter-bash.wasm'));
const p = new Parser(); p.setLanguage(lang);
function dump(n, d=0){ console.log(' '.repeat(d*2)+(n.isNamed?n.type:JSON.stringify(n.type))+' '+JSON.stringify(n.text).slice(0,60)); for (const c of n.children) dump(c,d+1); }
for (const s of process.argv.slice(2)) { const t = p.parse(s); dump(t.rootNode); console.log('---'); }
