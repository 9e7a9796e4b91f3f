import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/**
 * The bash grammar (tree-sitter-bash, compiled to WebAssembly) behind the risk rules. Loading is
 * async and happens once per process (`initPolicy`); after that, parsing is synchronous, so
 * `assessRisk` stays synchronous. Until it is loaded, `parseBash` returns null and the rules rate
 * every shell command high ("policy parser not loaded"): never low by accident.
 *
 * The two .wasm files are looked up, in order: $BATON_POLICY_WASM_DIR, next to the running module
 * (the CLI bundle and the Electron main bundle get copies there at build time), then the npm
 * packages themselves (running from source under vitest/tsx).
 */
export const ENGINE_WASM = 'tree-sitter.wasm';
export const BASH_WASM = 'tree-sitter-bash.wasm';

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

function moduleDir(): string | null {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
}

/** Candidate paths for one wasm file; the first that exists wins. */
export function wasmCandidates(file: string): string[] {
  const out: string[] = [];
  if (process.env.BATON_POLICY_WASM_DIR) out.push(join(process.env.BATON_POLICY_WASM_DIR, file));
  const here = moduleDir();
  if (here) out.push(join(here, file), join(here, 'wasm', file));
  try {
    const req = createRequire(import.meta.url);
    out.push(req.resolve(file === ENGINE_WASM ? 'web-tree-sitter/tree-sitter.wasm' : 'tree-sitter-bash/tree-sitter-bash.wasm'));
  } catch {
    // not resolvable from here (a bundle without node_modules beside it): the copies above serve
  }
  return out;
}

function readWasm(file: string): Uint8Array {
  const candidates = wasmCandidates(file);
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`policy parser: ${file} not found (looked in ${candidates.join(', ')})`);
  return readFileSync(found);
}

/** Loads the bash grammar once; later calls return the same promise. */
export function initPolicy(): Promise<void> {
  loading ??= (async () => {
    const engine = readWasm(ENGINE_WASM);
    await Parser.init({ wasmBinary: engine } as unknown as Parameters<typeof Parser.init>[0]);
    const bash = await Language.load(readWasm(BASH_WASM));
    const p = new Parser();
    p.setLanguage(bash);
    parser = p;
  })().catch((error: unknown) => {
    loading = null; // let a later call try again
    throw error;
  });
  return loading;
}

export function policyReady(): boolean {
  return parser !== null;
}

/** The syntax tree of a command line, or null before `initPolicy` has finished. */
export function parseBash(text: string): Tree | null {
  return parser ? parser.parse(text) : null;
}
